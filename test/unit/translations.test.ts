import i18next from 'i18next';
import t from 'tap';
import {
  createTranslations,
  type I18next,
  type I18nextInstance,
  type Resources,
  type TranslateOptions,
} from '../../contract/translations.ts';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };

// contract/translations.ts: i18next answers every string, one instance per language, behind a
// cache for calls without options.

function site() {
  const translations = createTranslations(i18next);
  translations.add('en', en);
  translations.add('th', th);
  return { en: translations.translator('en').t, th: translations.translator('th').t };
}

t.test('interpolation: values in as given (React escapes), never interpolated again', async (t) => {
  const { en: tEn, th: tTh } = site();
  t.equal(tEn('site.footerRights', { year: 2026 }), en.site.footerRights.replace('{{year}}', '2026'));
  t.equal(tTh('site.footerRights', { year: 2026 }), th.site.footerRights.replace('{{year}}', '2026'));
  t.equal(tEn('author.articlesBy', { name: 'Ann <b>' }), en.author.articlesBy.replace('{{name}}', 'Ann <b>'));
  t.equal(
    tEn('author.articlesBy', { name: '{{year}} $t(nav.home)' }),
    en.author.articlesBy.replace('{{name}}', '{{year}} $t(nav.home)'),
  );
  t.equal(tEn('author.articlesBy'), en.author.articlesBy, 'a value not given leaves its placeholder');
});

t.test('plurals by each language’s rules: English one/other, Thai other only', async (t) => {
  const { en: tEn, th: tTh } = site();
  t.equal(tEn('content.readingTime', { count: 1 }), en.content.readingTime_one.replace('{{count}}', '1'));
  t.equal(tEn('content.readingTime', { count: 5 }), en.content.readingTime_other.replace('{{count}}', '5'));
  t.equal(tEn('content.readingTime', { count: 0 }), en.content.readingTime_other.replace('{{count}}', '0'));
  for (const count of [0, 1, 5]) {
    t.equal(tTh('content.readingTime', { count }), th.content.readingTime_other.replace('{{count}}', String(count)));
  }
  const translations = createTranslations(i18next);
  translations.add('en', { x_zero: 'none', x_one: 'one', x_other: '{{count}} of them' });
  const { t: tx } = translations.translator('en');
  t.same(
    [0, 1, 2].map((count) => tx('x', { count })),
    ['none', 'one', '2 of them'],
    '`_zero` for 0 where it exists',
  );
});

t.test('missing keys: English, then the default value, then the key', async (t) => {
  const translations = createTranslations(i18next);
  translations.add('en', { site: { name: 'Asdas', tagline: 'Read' } });
  translations.add('th', { site: { name: 'อัสดาส' } });
  const { t: tTh } = translations.translator('th');
  t.equal(tTh('site.name'), 'อัสดาส');
  t.equal(tTh('site.tagline'), 'Read', 'a key Thai lacks answers in English');
  t.equal(tTh('no.such.key'), 'no.such.key', 'a key neither has answers itself');
  t.equal(
    tTh('no.such.key', { defaultValue: 'Hello {{name}}', name: 'Ann' }),
    'Hello Ann',
    'the default value, interpolated',
  );
  t.equal(tTh('no.such.key', { defaultValue: '' }), '', 'an empty default value');
  t.equal(tTh('site.name', { defaultValue: 'x' }), 'อัสดาส', 'a default value only when the key is missing');
  t.equal(tTh('site.A:B', { defaultValue: 'x' }), 'x', 'a colon is part of the key, not a namespace');
  translations.add('en', { codes: { 'A:B': 'colon' } });
  t.equal(tTh('codes.A:B'), 'colon');
});

t.test('a language without strings answers keys, then its strings once added', async (t) => {
  const translations = createTranslations(i18next);
  const thai = translations.translator('th');
  t.equal(thai.t('nav.home'), 'nav.home');
  t.equal(thai.t('nav.home', { defaultValue: 'Home' }), 'Home');
  translations.add('th', { nav: { home: 'หน้าแรก' } });
  t.equal(thai.t('nav.home'), 'หน้าแรก', 'the cached key is answered anew');
  t.equal(translations.translator('th'), thai, 'one translator per language');
  // The browser's account strings arrive after the others.
  t.equal(thai.t('form.email'), 'form.email');
  translations.add('th', { form: { email: 'อีเมล' } });
  t.equal(thai.t('form.email'), 'อีเมล');
  t.equal(thai.t('nav.home'), 'หน้าแรก', 'earlier strings stay');
});

t.test('the cache: a call without options asks i18next once; a call with options every time', async (t) => {
  const asked: string[] = [];
  const counting: I18next = {
    createInstance(options) {
      const wrap = (instance: I18nextInstance): I18nextInstance => ({
        init: () => instance.init(),
        cloneInstance: (clone) => wrap(instance.cloneInstance(clone)),
        addResourceBundle: (...args) => instance.addResourceBundle(...args),
        t(key: string, options?: TranslateOptions) {
          asked.push(key);
          return options === undefined ? instance.t(key) : instance.t(key, options);
        },
      });
      return wrap(i18next.createInstance(options));
    },
  };
  const translations = createTranslations(counting);
  translations.add('en', { site: { name: 'Asdas', footerRights: '© {{year}}' } });
  const { t: tEn } = translations.translator('en');
  const { t: tTh } = translations.translator('th');
  t.same(
    [tEn('site.name'), tEn('site.name'), tTh('site.name'), tTh('site.name')],
    ['Asdas', 'Asdas', 'Asdas', 'Asdas'],
  );
  t.same(asked, ['site.name', 'site.name'], 'once per language');
  asked.length = 0;
  t.equal(tEn('site.footerRights', { year: 2026 }), '© 2026');
  t.equal(tEn('site.footerRights', { year: 2027 }), '© 2027');
  t.same(asked, ['site.footerRights', 'site.footerRights'], 'options: i18next each time');
  asked.length = 0;
  translations.add('th', { site: { name: 'อัสดาส' } });
  t.equal(tTh('site.name'), 'อัสดาส');
  t.equal(tEn('site.name'), 'Asdas');
  t.same(asked, ['site.name', 'site.name'], 'adding strings empties every language’s cache');
  asked.length = 0;
  for (let index = 0; index < 3000; index += 1) tEn(`no.key${index}`);
  asked.length = 0;
  tEn('no.key0');
  tEn('no.key2999');
  t.same(asked, ['no.key2999'], 'the cache stops growing at its bound (keys asked for from a request)');
});

// i18next's own answers with the site's settings, for every key of both languages.
const keysOf = (value: Resources, prefix = ''): string[] =>
  Object.entries(value).flatMap(([key, child]) =>
    typeof child === 'string' ? [`${prefix}${key}`] : keysOf(child, `${prefix}${key}.`),
  );
const baseKeys = (value: Resources) => [
  ...new Set(keysOf(value).map((key) => key.replace(/_(zero|one|two|few|many|other)$/, ''))),
];

t.test('every key answers as a plain i18next instance does, cached or not', async (t) => {
  const { en: tEn, th: tTh } = site();
  const values = { name: 'Ann <b>', year: 2026, statusCode: 404, page: 2, period: '7 days' };
  for (const [language, actual] of [
    ['en', tEn],
    ['th', tTh],
  ] as const) {
    const reference = i18next.createInstance({
      resources: { en: { translation: en }, th: { translation: th } },
      lng: language,
      fallbackLng: 'en',
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    await reference.init();
    let checked = 0;
    for (const key of baseKeys(en)) {
      t.equal(actual(key), reference.t(key), `${language} ${key}`);
      t.equal(actual(key), reference.t(key), `${language} ${key} (cached)`);
      for (const count of [0, 1, 2, 21]) {
        t.equal(
          actual(key, { ...values, count }),
          reference.t(key, { ...values, count }),
          `${language} ${key} ${count}`,
        );
      }
      checked += 1;
    }
    t.ok(checked > 100, `${language}: ${checked} keys compared`);
  }
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

t.test('answers kept for numeric options are kept per value, and refreshed when strings change', async (t) => {
  const translations = createTranslations(i18next);
  translations.add('en', { n_one: 'one {{count}}', n_other: '{{count}} many', hi: 'Hi {{name}}, {{count}}' });
  const { t: tx } = translations.translator('en');
  t.same(
    [1, 2, 1, 2, 7].map((count) => tx('n', { count })),
    ['one 1', '2 many', 'one 1', '2 many', '7 many'],
    'each count its own answer, asked again',
  );
  t.equal(tx('hi', { name: 'Ann', count: 2 }), 'Hi Ann, 2');
  t.equal(tx('hi', { name: 'Bo', count: 2 }), 'Hi Bo, 2', 'a text option is never answered from the cache');
  translations.add('en', { n_other: '{{count}} in all' });
  t.equal(tx('n', { count: 2 }), '2 in all', 'new strings replace kept answers');
});
