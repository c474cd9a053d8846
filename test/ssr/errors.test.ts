import t, { type Test } from 'tap';
import { runRouteMiddleware } from '../../contract/route-middleware.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { browserUserAgent, googlebot, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

const { app, logs, close } = await startTestApp();
t.teardown(close);

const page = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, ...headers } });

/** The text a visitor sees: no tags or attributes, no page state. */
const shownText = (body: string) => body.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]*>/g, ' ');

/** Every not-found page: the same framed 404 with the spec's message and Clear errors. */
function framedNotFound(t: Test, body: string, url: string) {
  t.match(body, /class="site-header"/, `${url}: in the site's frame`);
  t.match(body, /data-testid="language-switch"/, `${url}: with the language switch`);
  t.match(body, /data-testid="inline-error"/, `${url}: the 404 page`);
  t.notMatch(body, /data-testid="error-screen"/, `${url}: not the bare error screen`);
  t.notMatch(body, /Details:|รายละเอียด/, `${url}: no developer label`);
  t.match(body, /data-testid="clear-errors"/, `${url}: the spec's Clear errors`);
  const shown = shownText(body);
  const path = url.split('?')[0]!;
  t.match(shown, /Page (not found|Not Found): \//, `${url}: the spec's message`);
  t.ok(shown.includes(path), `${url}: with the path`);
  const description = /<meta name="description" content="([^"]*)"/.exec(body)?.[1] ?? '';
  t.notOk(description.includes(path) || description.includes('secret'), `${url}: nor in the description`);
  t.match(description, /There is no page at this address|ไม่มีหน้าใดอยู่ที่ที่อยู่นี้/, `${url}: which explains`);
}

t.test("validate fails (the spec's fatal 404): the framed 404 page, status 404", async (t) => {
  for (const url of ['/asdas/Not_A_Slug?secret=1', '/th/asdas/UPPER']) {
    const response = await page(url);
    t.equal(response.statusCode, 404, url);
    framedNotFound(t, response.body, url);
  }
  t.match((await page('/th/asdas/UPPER')).body, /<html lang="th"/);
});

t.test('nothing to show: the same framed 404 page', async (t) => {
  for (const url of ['/no/such/page', '/asdas/no-such-article?secret=x', '/th/author/nobody', '/th/nope']) {
    const response = await page(url);
    t.equal(response.statusCode, 404, url);
    framedNotFound(t, response.body, url);
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
    t.match(thai.body, /data-testid="error-home" href="\/th"/, 'home in Thai');
    t.match(thai.body, /data-testid="error-sections"[\s\S]*href="\/th\/asdas"/);
    t.notMatch(thai.body, /Go to the home page|There is no page/, 'no English words');

    const fatal = await page('/th/asdas/Not_A_Slug');
    t.match(fatal.body, /<title>ไม่พบหน้านี้ \(404\) · Asdas<\/title>/, 'a refused slug: the same page');
    t.match(fatal.body, /data-testid="error-sections"[\s\S]*href="\/th\/bonus"/, 'with the sections');
  },
);

t.test('a bad query value is a 400 page, a page past the end a 404', async (t) => {
  const bad = await page('/asdas?page=abc');
  t.equal(bad.statusCode, 400);
  t.match(bad.body, /Invalid page number: abc/);
  const past = await page('/asdas?page=99');
  t.equal(past.statusCode, 404);
  t.match(past.body, /data-testid="inline-error"/);
  t.match(shownText(past.body), /Page not found: \/asdas\?page=99/, "the spec's message (the full path)");
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
