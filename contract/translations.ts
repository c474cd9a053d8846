import { defaultLocale, type Locale } from './locales.ts';

/**
 * Translations by i18next: one instance per language, made once, English the fallback. The
 * package comes in as an argument, as contract/ imports none (decision 0015).
 */

export interface TranslateOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string, options?: TranslateOptions) => string;

export interface Translator {
  readonly language: Locale;
  readonly t: TFunction;
}

export interface Resources {
  [key: string]: string | Resources;
}

export interface I18nextInstance {
  init(): unknown;
  cloneInstance(options: { lng: string }): I18nextInstance;
  t(key: string): unknown;
  t(key: string, options: TranslateOptions): unknown;
  addResourceBundle(
    language: string,
    namespace: string,
    resources: Resources,
    deep: boolean,
    overwrite: boolean,
  ): unknown;
}

export interface I18next {
  createInstance(options: Record<string, unknown>): I18nextInstance;
}

export interface Translations {
  /** A language's translator, the same object on every call; keys answer themselves until strings are added. */
  translator(locale: Locale): Translator;
  /** Merges strings into a language (its account strings after its others, in the browser). */
  add(locale: Locale, resources: Resources): void;
}

/** Answers without options or with numbers only are kept, up to this many a language; text options never. */
const cachedPerLanguage = 2048;

function numericKey(key: string, options: TranslateOptions): string | undefined {
  let cacheKey = key;
  for (const name in options) {
    const value = options[name];
    if (typeof value !== 'number') return undefined;
    cacheKey += `\u0000${name}=${value}`;
  }
  return cacheKey;
}

export function createTranslations(i18next: I18next): Translations {
  const english = i18next.createInstance({
    lng: defaultLocale,
    fallbackLng: defaultLocale,
    resources: {},
    initAsync: false,
    // One namespace, so a `:` in a key (an error code, a query value) is part of the key.
    nsSeparator: false,
    // React escapes what it renders; the emails escape their own HTML.
    interpolation: { escapeValue: false },
  });
  english.init();
  const translators = new Map<Locale, Translator>();
  const caches: Map<string, string>[] = [];

  function translator(locale: Locale): Translator {
    let made = translators.get(locale);
    if (made) return made;
    const instance = locale === defaultLocale ? english : english.cloneInstance({ lng: locale });
    const cache = new Map<string, string>();
    caches.push(cache);
    const t: TFunction = (key, options) => {
      const cacheKey = options === undefined ? key : numericKey(key, options);
      if (cacheKey === undefined) return instance.t(key, options!) as string;
      let text = cache.get(cacheKey);
      if (text === undefined) {
        text = (options === undefined ? instance.t(key) : instance.t(key, options)) as string;
        if (cache.size < cachedPerLanguage) cache.set(cacheKey, text);
      }
      return text;
    };
    made = { language: locale, t };
    translators.set(locale, made);
    return made;
  }

  return {
    translator,
    add(locale, resources) {
      english.addResourceBundle(locale, 'translation', resources, true, true);
      // Any answer may change: a key found now, or a language's fallback (English) filled in.
      for (const cache of caches) cache.clear();
    },
  };
}
