import { createContext, createElement, useContext, type ReactNode } from 'react';
import { defaultLocale, type Locale } from '../contract/locales.ts';
import { createTranslator, type Resources, type TFunction, type Translator } from '../contract/translator.ts';

export type { TFunction, TranslateOptions, Translator } from '../contract/translator.ts';

/**
 * The site's strings: locales/{en,th}.json, compiled once per language into plain lookups
 * (contract/translator.ts). The server registers both languages at start; the browser loads
 * only the language of the page (its own chunk, preloaded by the page's HTML) and the other one
 * when the visitor switches (see `loadTranslations`).
 */
const translators = new Map<Locale, Translator & { hook: { t: TFunction } }>();

/** Each language's strings as their own chunk: a page downloads only its language. */
const sources: Record<Locale, () => Promise<{ default: Resources }>> = {
  en: () => import('../locales/en.json'),
  th: () => import('../locales/th.json'),
};

export function registerTranslations(locale: Locale, resources: Resources): Translator {
  const fallback = locale === defaultLocale ? undefined : translators.get(defaultLocale);
  const translator = createTranslator(locale, resources, fallback);
  translators.set(locale, { ...translator, hook: { t: translator.t } });
  return translator;
}

/** Makes a language's strings available (a no-op once they are). */
export async function loadTranslations(locale: Locale): Promise<void> {
  if (translators.has(locale)) return;
  const { default: resources } = await sources[locale]();
  if (!translators.has(locale)) registerTranslations(locale, resources);
}

/** Until its strings are loaded a language answers keys (never the case where pages render). */
const missing: Translator & { hook: { t: TFunction } } = (() => {
  const t: TFunction = (key, options) => (options?.defaultValue as string | undefined) ?? key;
  return { language: 'none', t, hook: { t } };
})();

function entryFor(locale: Locale) {
  return translators.get(locale) ?? translators.get(defaultLocale) ?? missing;
}

/** The `t` of a language outside React (document head, error screens before the router). */
export function translatorFor(locale: Locale): Translator {
  return entryFor(locale);
}

const TranslationContext = createContext<Locale>(defaultLocale);

/** The language every `useTranslation()` below reads its strings in. */
export function TranslationProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return createElement(TranslationContext.Provider, { value: locale }, children);
}

/** `const { t } = useTranslation()`: i18next's keys, interpolation and plurals, as plain lookups. */
export function useTranslation(): { t: TFunction } {
  return entryFor(useContext(TranslationContext)).hook;
}
