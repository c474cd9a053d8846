// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the server build (tsconfig.server.json) compiles this file without client/*.d.ts
/// <reference path="./locale-parts.d.ts" />
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { defaultLocale, type Locale } from '../contract/locales.ts';
import { createTranslator, type Resources, type TFunction, type Translator } from '../contract/translator.ts';

export type { TFunction, TranslateOptions, Translator } from '../contract/translator.ts';

/**
 * The site's strings: locales/{en,th}.json, compiled once per language into plain lookups
 * (contract/translator.ts). The server registers both languages, whole, at start; the browser loads
 * only the language of the page (its own chunk, preloaded by the page's HTML) and the other one
 * when the visitor switches (see `loadTranslations`). In the browser a language comes in two parts
 * (vite.config.ts, `accountStrings`): what every page shows, and the account pages' strings (forms,
 * the account page, Play's outcomes), loaded with those pages and with the first Play
 * (`loadAccountStrings`), so a reader's first load does not carry them.
 */
const translators = new Map<Locale, Translator & { hook: { t: TFunction } }>();
/** Languages whose account strings are in place (on the server: every language, whole). */
const complete = new Set<Locale>();

/** Each language's strings as their own chunk: a page downloads only its language. */
const sources: Record<Locale, () => Promise<{ default: Resources }>> = {
  en: () => import('../locales/en.json'),
  th: () => import('../locales/th.json'),
};

/** The account pages' strings of each language (the browser's build cuts them from `sources`). */
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

/** Makes a language's strings available (a no-op once they are). */
export async function loadTranslations(locale: Locale): Promise<void> {
  if (translators.has(locale)) return;
  const { default: resources } = await sources[locale]();
  if (!translators.has(locale)) register(locale, resources);
}

/** Makes a language's account strings available too (both parts load at once when neither has). */
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

/** The language every `useTranslation()` below reads its strings in. */
export function TranslationProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return createElement(TranslationContext.Provider, { value: locale }, children);
}

/** `const { t } = useTranslation()`: i18next's keys, interpolation and plurals, as plain lookups. */
export function useTranslation(): { t: TFunction } {
  return entryFor(useContext(TranslationContext)).hook;
}
