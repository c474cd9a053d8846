import t from 'tap';
import { runRouteMiddleware } from '../../contract/route-middleware.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { browserUserAgent, googlebot, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

const { app, logs, close } = await startTestApp();
t.teardown(close);

const page = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, ...headers } });

t.test('validate fails: fatal 404 "Page Not Found: {path}" on the error screen', async (t) => {
  const response = await page('/asdas/Not_A_Slug');
  t.equal(response.statusCode, 404);
  t.match(response.body, /data-testid="error-screen"/, 'the full error screen');
  t.notMatch(response.body, /class="site-header"/, 'no layout around a fatal error');
  t.match(response.body, /Page Not Found: \/asdas\/Not_A_Slug/);
  t.match(response.body, />Error 404</);
  t.match(response.body, /<a href="\/"[^>]*>Clear errors<\/a>/);
});

t.test('validate fails in Thai too, with the Thai path in the message', async (t) => {
  const response = await page('/th/asdas/UPPER');
  t.equal(response.statusCode, 404);
  t.match(response.body, /Page Not Found: \/th\/asdas\/UPPER/);
  t.match(response.body, /<html lang="th"/);
});

t.test('nothing to show: non-fatal 404 "Page not found: {path}" inside the layout', async (t) => {
  for (const url of ['/no/such/page', '/asdas/no-such-article', '/th/author/nobody']) {
    const response = await page(url);
    t.equal(response.statusCode, 404, url);
    t.match(response.body, /class="site-header"/, `${url} keeps the layout`);
    t.match(response.body, /data-testid="inline-error"/);
    t.notMatch(response.body, /data-testid="error-screen"/);
    t.match(response.body, new RegExp(`Page not found: ${url.replace(/\//g, '\\/')}`));
  }
});

t.test(
  "a 404 helps in the reader's language: translated title and words, links home and to the sections",
  async (t) => {
    const english = await page('/no/such/page');
    t.match(english.body, /<title>Page not found \(404\) · Asdas<\/title>/);
    t.match(english.body, /There is no page at this address/);
    t.match(english.body, /<a[^>]*data-testid="error-home" href="\/"[^>]*>Go to the home page<\/a>/, 'a link home');
    t.match(
      english.body,
      /data-testid="error-sections"[\s\S]*href="\/asdas"[\s\S]*href="\/bonus"/,
      'links to the sections',
    );

    const thai = await page('/th/no/such/page');
    t.match(thai.body, /<title>ไม่พบหน้านี้ \(404\) · Asdas<\/title>/, 'the title in Thai');
    t.match(thai.body, /<h1>ไม่พบหน้าที่คุณต้องการ<\/h1>/);
    t.match(thai.body, /ไม่มีหน้าใดอยู่ที่ที่อยู่นี้/, 'the explanation in Thai');
    t.match(
      thai.body,
      /<code class="error-message" data-testid="error-message" lang="en">Page not found: \/th\/no\/such\/page<\/code>/,
      "the contract's message stays, marked as English",
    );
    t.match(thai.body, /data-testid="error-home" href="\/th"/, 'home in Thai');
    t.match(thai.body, /data-testid="error-sections"[\s\S]*href="\/th\/asdas"/);
    t.notMatch(thai.body, /Go to the home page|There is no page/, 'no English words but the message');

    const fatal = await page('/th/asdas/Not_A_Slug');
    t.match(fatal.body, /class="error-brand"[\s\S]*href="\/th"/, 'the fatal screen keeps the brand, linking home');
    t.match(fatal.body, /data-testid="error-sections"[\s\S]*href="\/th\/bonus"/, 'and the sections');
  },
);

t.test('a bad query value is a 400 page, a page past the end a 404', async (t) => {
  const bad = await page('/asdas?page=abc');
  t.equal(bad.statusCode, 400);
  t.match(bad.body, /Invalid page number: abc/);
  const past = await page('/asdas?page=99');
  t.equal(past.statusCode, 404);
  t.match(past.body, /Page not found: \/asdas\?page=99/);
});

t.test('a request asking for JSON gets {statusCode, message}, not HTML', async (t) => {
  const fatal = await page('/asdas/Bad', { accept: 'application/json' });
  t.equal(fatal.statusCode, 404);
  t.match(fatal.headers['content-type'], /application\/json/);
  t.same(fatal.json(), { statusCode: 404, message: 'Page Not Found: /asdas/Bad' });
  const missing = await page('/missing/page', { accept: 'application/json' });
  t.same(missing.json(), { statusCode: 404, message: 'Page not found: /missing/page' });
  const html = await page('/missing/page', { accept: 'text/html,application/json;q=0.9' });
  t.match(html.headers['content-type'], /text\/html/, 'a browser that also accepts JSON still gets the page');
});

t.test('a bot gets the status code and no error page', async (t) => {
  const response = await page('/asdas/Not_A_Slug', { 'user-agent': googlebot });
  t.equal(response.statusCode, 404);
  t.notMatch(response.body, /data-testid="error-screen"/, 'no error screen for a crawler');
  t.match(response.body, /class="site-header"/, 'the page keeps its layout and links');
  t.match(response.body, /"isBot":true/, 'the browser side knows it is a bot');
  t.match(response.body, /<meta name="robots" content="noindex/, 'error pages are kept out of the index');
});

t.test('the hydration data carries the error so the browser renders the same screen', async (t) => {
  const response = await page('/asdas/Not_A_Slug');
  const state = pageStateOf(response.body).router;
  t.ok(state, 'hydration data present');
  const parsed = state as unknown as { errors: Record<string, { __type: string; status: number; data: unknown }> };
  const [error] = Object.values(parsed.errors);
  t.equal(error?.__type, 'RouteErrorResponse');
  t.same(error?.data, { statusCode: 404, message: 'Page Not Found: /asdas/Not_A_Slug', fatal: true });
});

t.test('payloads answer the same errors as JSON', async (t) => {
  const missing = await app.inject({ url: '/no/page/_payload.json' });
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { statusCode: 404, message: 'Page not found: /no/page', fatal: false });
  const invalid = await app.inject({ url: '/asdas/Bad/_payload.json' });
  t.equal(invalid.statusCode, 404);
  t.same(invalid.json(), { statusCode: 404, message: 'Page Not Found: /asdas/Bad', fatal: true });
});

t.test('unknown API paths are JSON 404s, never pages', async (t) => {
  const response = await app.inject({ url: '/api/nothing/here' });
  t.equal(response.statusCode, 404);
  t.same(response.json(), { statusCode: 404, code: 'NOT_FOUND', message: 'Not found: /api/nothing/here' });
  const put = await app.inject({ method: 'PUT', url: '/somewhere' });
  t.equal(put.statusCode, 404);
  t.equal(put.json().code, 'NOT_FOUND');
});

t.test('form posts: refused from another origin, 405 where a page takes no form', async (t) => {
  const foreign = await app.inject({
    method: 'POST',
    url: '/bonus',
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'a=1',
  });
  t.equal(foreign.statusCode, 403);
  t.equal(foreign.json().code, 'CROSS_ORIGIN_FORM');
  const noOrigin = await app.inject({
    method: 'POST',
    url: '/bonus',
    payload: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  t.equal(noOrigin.statusCode, 403, 'a post that names no origin is refused too');
  const own = await app.inject({
    method: 'POST',
    url: '/bonus',
    headers: {
      origin: 'http://localhost:80',
      host: 'localhost:80',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'a=1',
  });
  t.equal(own.statusCode, 405, 'a page without a form action does not take posts');
});

t.test('an unknown route middleware throws the spec message', async (t) => {
  t.throws(() => runRouteMiddleware(['nope'], { user: null, locale: 'en', target: '/x', redirectTo: null }), {
    message: "Unknown route middleware: 'nope'.",
  });
  t.throws(
    () => runRouteMiddleware(['constructor'], { user: null, locale: 'en', target: '/x', redirectTo: null }),
    { message: "Unknown route middleware: 'constructor'." },
    'names are looked up as own entries only',
  );
  for (const route of pageRoutes) {
    // A known middleware may still throw its redirect (`auth` with nobody logged in): not an Error.
    let thrown: unknown;
    try {
      runRouteMiddleware(route.middleware ?? [], { user: null, locale: 'en', target: '/x', redirectTo: null });
    } catch (error) {
      thrown = error;
    }
    t.notOk(thrown instanceof Error, `route ${route.id} names only known middleware`);
  }
});

t.test('no error is logged for ordinary 404s', async (t) => {
  await page('/still/missing');
  t.notOk(
    logs.some((line) => line.msg === 'Произошла ошибка'),
    'a missing page is not a failure',
  );
});
