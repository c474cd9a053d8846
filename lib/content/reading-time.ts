import type { Locale } from '../../contract/locales.ts';

const wordsPerMinute = 200;

const segmenters = new Map<Locale, Intl.Segmenter>();

function segmenter(locale: Locale): Intl.Segmenter {
  let found = segmenters.get(locale);
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, found);
  }
  return found;
}

/** Words in `text`, by ICU's word segmenter: Thai has no spaces between words. */
export function countWords(text: string, locale: Locale): number {
  let count = 0;
  for (const part of segmenter(locale).segment(text)) {
    if (part.isWordLike) count += 1;
  }
  return count;
}

/** At least 1. */
export function readingMinutes(text: string, locale: Locale): number {
  return Math.max(1, Math.round(countWords(text, locale) / wordsPerMinute));
}
