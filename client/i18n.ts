// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the server build (tsconfig.server.json) compiles this file without client/*.d.ts
/// <reference path="./locale-parts.d.ts" />
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { defaultLocale, type Locale } from '../contract/locales.ts';
import { createTranslator, type Resources, type TFunction, type Translator } from '../contract/translator.ts';

export type { TFunction, TranslateOptions, Translator } from '../contract/translator.ts';

// The browser loads only the page's language, and its account strings (vite.config.ts,
// `accountStrings`) only with the pages that need them, so a reader's first load does not carry
// them (decision 0019). The server registers both languages whole.
const translators = new Map<Locale, Translator & { hook: { t: TFunction } }>();
/** Languages whose account strings are in place (on the server: every language, whole). */
const complete = new Set<Locale>();

const sources: Record<Locale, () => Promise<{ default: Resources }>> = {
  en: () => import('../locales/en.json'),
  th: () => import('../locales/th.json'),
};

/** The browser's build cuts these from `sources`. */
const accountSources: Record<Locale, () => Promise<{ default: Resources }>> = {
  en: () => import('../locales/en.json?account'),
  th: () => import('../locales/th.json?account'),
};

function register(locale: Locale, resources: Resources): Translator {
  const fallback = locale === defaultLocale ? undefined : translators.get(defaultLocale);
  const translator = createTranslator(locale, resources, fallback);
  translators.set(locale, { ...translator, hook: { t: translator.t } });
  return translator;
}

/** The server's registration: a language's every string, so no account part is ever loaded. */
export function registerTranslations(locale: Locale, resources: Resources): Translator {
  complete.add(locale);
  return register(locale, resources);
}

export async function loadTranslations(locale: Locale): Promise<void> {
  if (translators.has(locale)) return;
  const { default: resources } = await sources[locale]();
  if (!translators.has(locale)) register(locale, resources);
}

/** Both parts load at once when neither has. */
export async function loadAccountStrings(locale: Locale): Promise<void> {
  if (complete.has(locale)) return;
  const [, { default: account }] = await Promise.all([loadTranslations(locale), accountSources[locale]()]);
  if (complete.has(locale)) return;
  complete.add(locale);
  translators.get(locale)!.add(account);
}

/** Until its strings are loaded a language answers keys (never the case where pages render). */
const missing: Translator & { hook: { t: TFunction } } = (() => {
  const t: TFunction = (key, options) => options?.defaultValue ?? key;
  return { language: 'none', t, add: () => undefined, hook: { t } };
})();

function entryFor(locale: Locale) {
  return translators.get(locale) ?? translators.get(defaultLocale) ?? missing;
}

/** The `t` of a language outside React (document head, error screens before the router). */
export function translatorFor(locale: Locale): Translator {
  return entryFor(locale);
}

const TranslationContext = createContext<Locale>(defaultLocale);

export function TranslationProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return createElement(TranslationContext.Provider, { value: locale }, children);
}

/** `const { t } = useTranslation()`: i18next's keys, interpolation and plurals, as plain lookups. */
export function useTranslation(): { t: TFunction } {
  return entryFor(useContext(TranslationContext)).hook;
}
