import i18next, { type i18n, type TFunction } from 'i18next';
import { useContext } from 'react';
import { I18nContext, initReactI18next } from 'react-i18next';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { defaultLocale, locales, type Locale } from '../lib/locales.ts';

const resources = { en: { translation: en }, th: { translation: th } };

// One instance per language, made once: building one per request cost three quarters of SSR throughput.
const instances = new Map<Locale, i18n>(
  locales.map((locale) => {
    const instance = i18next.createInstance();
    void instance.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: defaultLocale,
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    return [locale, instance];
  }),
);

export function i18nFor(locale: Locale): i18n {
  return instances.get(locale)!;
}

const fixedT = new Map<i18n, TFunction>([...instances.values()].map((instance) => [instance, instance.getFixedT(instance.language)]));

/**
 * The app's `useTranslation`: the `t` of the language the page renders in (from the provider at
 * the root). react-i18next's own hook copies the whole i18next instance for every call during a
 * server render, which cost a tenth of SSR CPU time; every string here is loaded at start, so a
 * fixed `t` per language is all a component needs.
 */
export function useTranslation(): { t: TFunction } {
  const instance = useContext(I18nContext)?.i18n ?? i18nFor(defaultLocale);
  return { t: fixedT.get(instance) ?? instance.getFixedT(instance.language) };
}
