import t from 'tap';
import { localePath } from '../../contract/locales.ts';
import { browserUserAgent, googlebot, startTestApp } from '../helpers/app.ts';
import { formClient, sessionCookie } from '../helpers/forms.ts';

// What a CDN or the proxy may keep (decision 0044): each page type in both languages, for a
// visitor with no session, one signed in, and answers that set the session or the notice cookie.
const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);
const { post, postJson } = formClient(app);

const shared = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30';
const pages = ['/', '/bonus', '/terms-apply', '/author', '/asdas', '/asdas?page=1', '/asdas/rtp-explained'];
const accountPages = ['/login', '/registration', '/forgot-password'];
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, 'accept-language': 'en', ...headers } });
const payloadOf = (url: string) => {
  const [path = '/', query] = url.split('?');
  return `${path === '/' ? '' : path}/_payload.json${query ? `?${query}` : ''}`;
};
const buildOf = (html: string) => /data-build-id="([^"]+)"/.exec(html)?.[1] ?? '';

const user = {
  email: 'cache@example.com',
  displayName: 'Cache Reader',
  password: 'a long passphrase 42',
  acceptTerms: 'on',
  confirmAge: 'on',
};
const registered = await post('/registration', user);
const token = sessionCookie(registered)?.value ?? '';
const signedIn = { cookie: `token=${token}` };

t.test('an anonymous page: public for a few seconds, and says what it varies by', async (t) => {
  for (const locale of ['en', 'th'] as const) {
    for (const url of [...pages, ...accountPages].map((page) => localePath(locale, page))) {
      const page = await get(url, { cookie: `lang=${locale}` });
      t.equal(page.statusCode, 200, `${url} renders`);
      t.equal(page.headers['cache-control'], shared, `${url}: shared caches may keep it`);
      t.match(page.headers.vary, /Authorization, Cookie/, `${url}: a session or language cookie is another page`);
      t.ok(page.headers.etag, `${url}: revalidated by its ETag`);
      const again = await get(url, { cookie: `lang=${locale}` });
      t.equal(again.headers['x-cache'], 'HIT', `${url}: from the page cache`);
      t.equal(again.headers['cache-control'], shared, `${url}: a hit says the same`);
    }
  }
});

t.test("a payload is shared only when asked with this build's id", async (t) => {
  const build = buildOf((await get('/bonus')).body);
  t.ok(build, 'the page names its build');
  for (const locale of ['en', 'th'] as const) {
    for (const url of pages.filter((page) => !page.includes('?')).map((page) => localePath(locale, page))) {
      const current = await get(`${payloadOf(url)}?build=${build}`);
      t.equal(current.statusCode, 200, `${url}: payload`);
      t.equal(current.headers['cache-control'], shared, `${url}: this build's payload is shared`);
      const bare = await get(payloadOf(url));
      t.equal(bare.headers['cache-control'], 'no-cache', `${url}: without the build, browsers only`);
      const other = await get(`${payloadOf(url)}?build=older`);
      t.equal(other.headers['cache-control'], 'no-cache', `${url}: another build's address, browsers only`);
      t.equal(other.headers['x-cache'], 'MISS', 'and the page cache keeps no copy under it');
    }
  }
});

t.test('a signed-in page or payload is kept by nobody', async (t) => {
  t.ok(token, 'registered');
  const build = buildOf((await get('/bonus')).body);
  for (const locale of ['en', 'th'] as const) {
    for (const url of [...pages, '/account', '/play'].map((page) => localePath(locale, page))) {
      const page = await get(url, signedIn);
      t.equal(page.headers['cache-control'], 'private, no-store', `${url} signed in`);
      const payload = await get(`${payloadOf(url.split('?')[0]!)}?build=${build}`, signedIn);
      t.equal(payload.headers['cache-control'], 'private, no-store', `${url} payload signed in`);
    }
  }
  const bearer = await get(`/_payload.json?build=${build}`, { authorization: `Bearer ${token}` });
  t.equal(bearer.headers['cache-control'], 'private, no-store', 'a Bearer token too');
  const stale = await get('/bonus', { cookie: 'token=no-longer-valid' });
  t.equal(stale.headers['cache-control'], 'private, no-store', 'any session cookie, even one that no longer signs in');
});

t.test('an answer that sets the session or the notice cookie is kept by nobody', async (t) => {
  const login = await post('/login', { email: user.email, password: user.password });
  t.equal(login.statusCode, 303);
  t.ok(sessionCookie(login)?.value, 'the login sets the session cookie');
  t.equal(login.headers['cache-control'], 'private, no-store', 'the login redirect');
  const json = await postJson('/th/login', { email: user.email, password: user.password });
  t.ok(sessionCookie(json)?.value);
  t.equal(json.headers['cache-control'], 'private, no-store', 'the login as JSON');

  const logout = await post('/logout', {}, signedIn.cookie);
  t.equal(logout.statusCode, 303);
  const flash = logout.cookies.find((cookie) => cookie.name === 'flash');
  t.ok(flash?.value, 'a notice for the next page');
  t.equal(logout.headers['cache-control'], 'private, no-store');
  const notice = await get(logout.headers.location as string, { cookie: `flash=${flash!.value}` });
  t.equal(notice.statusCode, 200);
  t.match(String(notice.headers['set-cookie']), /flash=;/, 'the page clears the notice');
  t.equal(notice.headers['cache-control'], 'private, no-store', 'the page showing the notice');

  const api = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
  });
  t.equal(api.statusCode, 200);
  t.equal(api.headers['cache-control'], 'private, no-store', 'the JSON API login');
});

t.test('errors and addresses a visitor made up are never shared', async (t) => {
  for (const url of ['/no/such/page', '/th/no/such/page', '/asdas/no-such-article']) {
    const missing = await get(url);
    t.equal(missing.statusCode, 404, url);
    t.equal(missing.headers['cache-control'], 'no-cache', `${url}: a 404 is not shared`);
  }
  for (const url of ['/bonus?utm=1', '/th/bonus?x=y', '/asdas?page=1&page=2']) {
    const page = await get(url);
    t.not(page.headers['cache-control'], shared, `${url}: not the page's own address`);
  }
});

t.test('the English home: Thai first visits are told apart, crawlers get it unshared', async (t) => {
  const thai = { 'accept-language': 'th-TH,th;q=0.9,en;q=0.5' };
  const person = await get('/', thai);
  t.equal(person.statusCode, 302, 'a person preferring Thai is sent to /th');
  t.equal(person.headers['cache-control'], 'no-cache');
  t.equal(person.headers.vary, 'Accept-Language, Authorization, Cookie');
  const crawler = await get('/', { ...thai, 'user-agent': googlebot });
  t.equal(crawler.statusCode, 200, 'a crawler is not');
  t.equal(crawler.headers['cache-control'], 'no-cache', 'so a shared cache must not keep what a crawler got');
  const chosen = await get('/', { ...thai, cookie: 'lang=en' });
  t.equal(chosen.statusCode, 200, 'English chosen');
  t.equal(chosen.headers['cache-control'], shared, 'the same for a crawler and a person: shared');
  t.match(chosen.headers.vary, /^Accept-Language, Authorization, Cookie/);
});
