import t from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// Every string in both languages, and no page ever shows a raw translation key (`nav.logout`).

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : keys(value, `${prefix}${key}.`),
  );
}

/** i18next plural forms (`_one`, `_other`) differ by language: Thai has only `_other`. */
const withoutPlural = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

t.test('English and Thai have the same keys', async (t) => {
  const english = new Set(keys(en as Tree).map(withoutPlural));
  const thai = new Set(keys(th as Tree).map(withoutPlural));
  t.same(
    [...english].filter((key) => !thai.has(key)),
    [],
    'no English key missing in Thai',
  );
  t.same(
    [...thai].filter((key) => !english.has(key)),
    [],
    'no Thai key missing in English',
  );
});

// A raw key is a top-level section name, a dot, and a key: `nav.logout`, `errors.required`, `play.errors.X`.
const sections = Object.keys(en).concat('errors');
const rawKey = new RegExp(`(?<![\\w./-])(?:${sections.join('|')})\\.[A-Za-z_][\\w]*(?:\\.[\\w]+)*(?![\\w/-])`, 'g');

/** What a visitor can see or hear of a page: text and the attributes read out, not scripts or URLs. */
function visible(html: string): string {
  const attributes = [...html.matchAll(/\s(?:title|aria-label|alt|placeholder|content)="([^"]*)"/g)].map(
    (match) => match[1],
  );
  const text = html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return `${text} ${attributes.join(' ')}`;
}

t.test('the check sees a raw key', async (t) => {
  t.same(visible('<title>nav.logout · Asdas</title>').match(rawKey), ['nav.logout']);
  t.same(visible('<p class="x">form.errors.required</p>').match(rawKey), ['form.errors.required']);
  t.same(visible('<a href="/asdas/x.y">Read more at example.com.</a>').match(rawKey), null);
});

const { app, close } = await startTestApp();
t.teardown(close);

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email: `keys.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Key Player',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  },
});
const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;

const paths = [
  '/',
  '/asdas',
  '/asdas?page=2',
  '/asdas/how-to-read-bonus-terms',
  '/author/daniel-hart',
  '/table-of-content',
  '/bonus',
  '/terms-apply',
  '/play-responsibility',
  '/login',
  '/registration',
  '/logout',
  '/forgot-password',
  '/no-such-page',
  '/asdas/Not_A_Slug',
  '/asdas?page=x',
];
const userPaths = ['/account', '/play', '/logout'];

for (const locale of ['en', 'th'] as const) {
  t.test(`${locale}: no raw translation key on any page`, async (t) => {
    const prefix = locale === 'en' ? '' : '/th';
    const cases = [...paths.map((path) => ({ path, user: false })), ...userPaths.map((path) => ({ path, user: true }))];
    for (const { path, user } of cases) {
      const url = path === '/' && prefix ? '/th' : `${prefix}${path}`;
      const response = await app.inject({
        url,
        headers: { 'user-agent': browserUserAgent, ...(user ? { cookie: `token=${token}` } : {}) },
      });
      t.same(visible(response.body).match(rawKey) ?? [], [], `${url}${user ? ' (logged in)' : ''}`);
    }
    // Forms posted with errors show translated messages too.
    const posted = await app.inject({
      method: 'POST',
      url: `${prefix}/registration`,
      headers: {
        'user-agent': browserUserAgent,
        origin: 'http://localhost:80',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'email=x&password=1&displayName=',
    });
    t.equal(posted.statusCode, 400, 'the form came back with its errors');
    t.match(posted.body, /data-testid="error-summary"/);
    t.same(visible(posted.body).match(rawKey) ?? [], [], `${prefix}/registration posted with errors`);
  });
}
