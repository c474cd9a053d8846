import type { Locale } from '../contract/locales.ts';
import { stringMemo } from './string-memo.ts';

/** A browser's navigation or form post (`text/html` named): it gets pages, not JSON errors. */
export function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/html');
}

/** Whether a request asks for JSON rather than a page (an API client, `fetch` with Accept JSON). */
export function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** The preferred of our languages in an Accept-Language header, or null when it names neither. */
export function preferredLocale(acceptLanguage: string | undefined): Locale | null {
  if (!acceptLanguage) return null;
  return preferredOf(acceptLanguage);
}

const preferredOf = stringMemo((acceptLanguage: string): Locale | null => {
  const ranked = acceptLanguage
    .split(',')
    .map((entry, position) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { language: tag.toLowerCase().split('-')[0], quality: Number.isFinite(quality) ? quality : 0, position };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position);
  for (const { language } of ranked) {
    if (language === 'th' || language === 'en') return language;
  }
  return null;
});
