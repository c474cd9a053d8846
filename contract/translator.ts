/**
 * i18next's format compiled into a flat table: `t('nav.home')` is one Map read. The parts the site
 * uses behave as in i18next (test/unit/translator.test.ts); values go in unescaped: React escapes.
 */

export interface TranslateOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string, options?: TranslateOptions) => string;

export interface Translator {
  readonly language: string;
  readonly t: TFunction;
  add(resources: Resources): void;
}

export interface Resources {
  [key: string]: string | Resources;
}

type Compiled = string | ((values: TranslateOptions) => string);

const placeholder = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function compile(text: string): Compiled {
  if (!text.includes('{{')) return text;
  // Even parts are literal text, odd parts are value names.
  const parts = text.split(placeholder);
  return (values) => {
    let out = parts[0]!;
    for (let index = 1; index < parts.length; index += 2) {
      const value = values[parts[index]!];
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- values are what the caller passes, as text
      out += (value === undefined || value === null ? `{{${parts[index]}}}` : String(value)) + parts[index + 1]!;
    }
    return out;
  };
}

function flatten(resources: Resources, prefix: string, into: Map<string, Compiled>) {
  for (const [key, value] of Object.entries(resources)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(path, compile(value));
    else flatten(value, path, into);
  }
}

/** Builds a language's `t`; keys missing from `resources` are looked up in `fallback` (English). */
export function createTranslator(language: string, resources: Resources, fallback?: Translator): Translator {
  const table = new Map<string, Compiled>();
  flatten(resources, '', table);
  const plurals = new Intl.PluralRules(language);
  const render = (entry: Compiled, options: TranslateOptions | undefined) =>
    typeof entry === 'string' ? entry : entry(options ?? {});

  const lookup = (key: string, options: TranslateOptions | undefined): Compiled | undefined => {
    const count = options?.count;
    if (typeof count === 'number') {
      const forms = count === 0 ? [`${key}_zero`] : [];
      forms.push(`${key}_${plurals.select(count)}`, `${key}_other`);
      for (const form of forms) {
        const entry = table.get(form);
        if (entry !== undefined) return entry;
      }
    }
    return table.get(key);
  };

  const t: TFunction = (key, options) => {
    if (options === undefined) {
      const entry = table.get(key);
      if (typeof entry === 'string') return entry;
    }
    const entry = lookup(key, options);
    if (entry !== undefined) return render(entry, options);
    if (fallback && !table.has(key)) {
      const fromFallback = fallback.t(key, options);
      if (fromFallback !== key) return fromFallback;
    }
    if (options?.defaultValue !== undefined) return render(compile(options.defaultValue), options);
    return key;
  };
  return { language, t, add: (resources) => flatten(resources, '', table) };
}
