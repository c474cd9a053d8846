import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from './build-info.ts';
import { locales, type Locale } from '../contract/locales.ts';

/** The font file client/fonts.css uses for each page language's own script. */
const fontFiles: Record<Locale, RegExp> = {
  en: /^noto-sans-latin-wght-normal-[\w-]+\.woff2$/,
  th: /^noto-sans-thai-thai-wght-normal-[\w-]+\.woff2$/,
};

/**
 * `<link rel="preload">` of the page language's font, by language: the browser starts fetching
 * it with the HTML instead of after the stylesheet. The files are the hashed ones the production
 * build wrote (dist/client/assets); development serves fonts unhashed and preloads nothing.
 * Fonts are fetched in CORS mode, hence `crossorigin`.
 */
export function pageFontPreloads(dev: boolean): Record<Locale, string> {
  let assets: string[] = [];
  if (!dev) {
    try {
      assets = readdirSync(resolve(projectRoot, 'dist/client/assets'));
    } catch {
      assets = [];
    }
  }
  return Object.fromEntries(
    locales.map((locale) => {
      const file = assets.find((name) => fontFiles[locale].test(name));
      return [locale, file ? `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>` : ''];
    }),
  ) as Record<Locale, string>;
}
