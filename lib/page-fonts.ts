import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { projectRoot } from './build-info.ts';
import { locales, type Locale } from '../contract/locales.ts';

const latin = /^noto-sans-latin-wght-normal-[\w-]+\.woff2$/;
const thai = /^noto-sans-thai-thai-wght-normal-[\w-]+\.woff2$/;
const switchLabel = /^noto-sans-thai-switch-label-[\w-]+\.woff2$/;

/**
 * The font files each language's first screen is drawn with (client/fonts.css): Latin and the
 * switch's small "ภาษาไทย" file for English; Thai and Latin (brand, names, numbers) for Thai.
 */
const fontFiles: Record<Locale, RegExp[]> = {
  en: [latin, switchLabel],
  th: [thai, latin],
};

/**
 * Preloads of each language's fonts, fetched with the HTML instead of after the stylesheet; the
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
    locales.map((locale) => [
      locale,
      fontFiles[locale]
        .map((pattern) => assets.find((name) => pattern.test(name)))
        .filter((file) => file !== undefined)
        .map((file) => `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>`)
        .join(''),
    ]),
  ) as Record<Locale, string>;
}
