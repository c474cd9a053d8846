import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import i18next from 'i18next';
import { defaultLocale, isLocale, locales, type Locale } from '../contract/locales.ts';
import { createTranslations, type Resources, type TFunction } from '../contract/translations.ts';
import { projectRoot } from './build-info.ts';

// The server's own strings (emails, device names, the notice pages), outside the page render: i18next
// over locales/*.json, both languages whole, read and set up once at start (contract/translations.ts).
const translations = createTranslations(i18next);
for (const locale of locales) {
  translations.add(
    locale,
    JSON.parse(readFileSync(resolve(projectRoot, 'locales', `${locale}.json`), 'utf8')) as Resources,
  );
}

/** A language's `t` (English for a value that is no language: a stored row's, say). */
export function serverT(locale: Locale): TFunction {
  return translations.translator(isLocale(locale) ? locale : defaultLocale).t;
}
