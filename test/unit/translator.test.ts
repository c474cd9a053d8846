import i18next from 'i18next';
import t from 'tap';
import { createTranslator, type Resources } from '../../contract/translator.ts';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };

// The site's `t` is a compiled lookup; i18next (whose JSON format the locale files use) is the
// reference it must agree with, for every key of both languages.
const resources = { en: { translation: en }, th: { translation: th } };

async function reference(language: 'en' | 'th') {
  const instance = i18next.createInstance();
  await instance.init({
    resources,
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance.getFixedT(language);
}

function keysOf(value: Resources, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    typeof child === 'string' ? [`${prefix}${key}`] : keysOf(child, `${prefix}${key}.`),
  );
}

/** Plural forms are asked for by their base key with a count, as the components do. */
function baseKeys(value: Resources): string[] {
  return [...new Set(keysOf(value).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '')))];
}

const values = { name: 'Ann <b>', year: 2026, statusCode: 404, page: 2, period: '7 days' };
const english = createTranslator('en', en);
const translators = { en: english, th: createTranslator('th', th, english) };

for (const language of ['en', 'th'] as const) {
  t.test(`${language}: every key answers what i18next answers`, async (t) => {
    const expected = await reference(language);
    const { t: actual } = translators[language];
    let checked = 0;
    for (const key of baseKeys(en)) {
      t.equal(actual(key), expected(key), key);
      t.equal(actual(key, values), expected(key, values), `${key} with values`);
      for (const count of [0, 1, 2, 5, 21]) {
        t.equal(actual(key, { ...values, count }), expected(key, { ...values, count }), `${key} count ${count}`);
      }
      checked += 1;
    }
    t.ok(checked > 100, `${checked} keys compared`);
  });
}

t.test('missing keys: the default value, else the key, as i18next does', async (t) => {
  const expected = await reference('th');
  const { t: actual } = translators.th;
  for (const [key, options] of [
    ['form.errors.no_such_code', { defaultValue: 'Something is wrong' }],
    ['no.such.key', undefined],
    ['no.such.key', { defaultValue: 'Hello {{name}}', name: 'Ann' }],
  ] as const) {
    t.equal(actual(key, options), expected(key, options), key);
  }
});

t.test('a key Thai lacks falls back to English', async (t) => {
  const thai = createTranslator(
    'th',
    { site: { name: 'อัสดาส' } },
    createTranslator('en', { site: { name: 'Asdas', tagline: 'Read' } }),
  );
  t.equal(thai.t('site.name'), 'อัสดาส');
  t.equal(thai.t('site.tagline'), 'Read');
});

t.test("every English string has a Thai one (plural forms by each language's own rules)", async (t) => {
  const thaiKeys = new Set(keysOf(th));
  const thaiPlural = new Intl.PluralRules('th').resolvedOptions().pluralCategories;
  for (const key of keysOf(en)) {
    const form = /_(zero|one|two|few|many|other)$/.exec(key)?.[1];
    if (form && form !== 'zero' && !thaiPlural.includes(form as Intl.LDMLPluralRule)) continue;
    t.ok(thaiKeys.has(key), `th has ${key}`);
  }
});
