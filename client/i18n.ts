import i18next from 'i18next';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { defaultLocale, type Locale } from '../contract/locales.ts';
import { createTranslations, type Resources, type TFunction, type Translator } from '../contract/translations.ts';

export type { TFunction, TranslateOptions, Translator } from '../contract/translations.ts';

// One i18next instance per language (contract/translations.ts). The browser loads the page's
// language, and its account strings only with the pages that need them (decision 0019).
/** Exported for strings a page bundles with itself (the play page's, vite.config.ts `?play`). */
export const translations = createTranslations(i18next);
/** Languages whose strings are in place (their reader part, in the browser). */
const loaded = new Set<Locale>();
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

/** The server's registration: a language's every string, so no account part is ever loaded. */
export function registerTranslations(locale: Locale, resources: Resources): Translator {
  loaded.add(locale);
  complete.add(locale);
  translations.add(locale, resources);
  return translations.translator(locale);
}

export async function loadTranslations(locale: Locale): Promise<void> {
  if (loaded.has(locale)) return;
  const { default: resources } = await sources[locale]();
  if (loaded.has(locale)) return;
  loaded.add(locale);
  translations.add(locale, resources);
}

/** Whether a language's account strings are in place (prefetch: what an account page's link still needs). */
export function accountStringsLoaded(locale: Locale): boolean {
  return complete.has(locale);
}

/** Both parts load at once when neither has. */
export async function loadAccountStrings(locale: Locale): Promise<void> {
  if (complete.has(locale)) return;
  const [, { default: account }] = await Promise.all([loadTranslations(locale), accountSources[locale]()]);
  if (complete.has(locale)) return;
  complete.add(locale);
  translations.add(locale, account);
}

/** A language's `t` outside React (document head, early error screens); not loaded yet: English. */
export function translatorFor(locale: Locale): Translator {
  return translations.translator(loaded.has(locale) ? locale : defaultLocale);
}

const TranslationContext = createContext<Locale>(defaultLocale);

export function TranslationProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return createElement(TranslationContext.Provider, { value: locale }, children);
}

/** The language the surrounding TranslationProvider renders in (also outside the router). */
export function useTranslationLocale(): Locale {
  return useContext(TranslationContext);
}

/** `const { t } = useTranslation()`: the language's i18next `t`, the same object on every render. */
export function useTranslation(): { t: TFunction } {
  return translatorFor(useContext(TranslationContext));
}
