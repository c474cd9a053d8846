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
 * A preload of each language's font, fetched with the HTML instead of after the stylesheet; the
 * build's hashed files, so nothing in development. Fonts are fetched in CORS mode: `crossorigin`.
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
      return [
        locale,
        file ? `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>` : '',
      ];
    }),
  ) as Record<Locale, string>;
}
