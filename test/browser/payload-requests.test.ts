import t from 'tap';
import type { Page, Route } from 'playwright-core';
import { FRESH_MS } from '../../client/lib/swr-config.ts';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest, withoutBuild, payloadRoutes } from '../helpers/browser.ts';

// Page data in the browser has one cache, SWR's (client/router/payload.ts): every `_payload.json`
// request is counted here, per page. The page just loaded asks nothing; each client navigation asks
// once, whether a prefetch came first, is still in flight, or never happened.
const { app, base, browser } = await startBrowserTest(t);

async function open(path: string, options: { token?: string; beforeLoad?: (page: Page) => Promise<unknown> } = {}) {
  const context = await browser.newContext({ userAgent: browserUserAgent, viewport: { width: 1280, height: 800 } });
  if (options.token) await context.addCookies([{ name: 'token', value: options.token, url: base }]);
  const page = await context.newPage();
  await options.beforeLoad?.(page);
  const consoleLog = collectConsole(page);
  const requested: string[] = [];
  page.on('request', (request) => requested.push(withoutBuild(request.url())));
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
  // Hydration, the navigation chunk and the prefetches of the links in view have run by then.
  await settled(page, 3);
  /** The requests for `pagePath`'s payload so far. */
  const payloads = (pagePath: string) =>
    requested.filter((url) => url === `${base}${pagePath === '/' ? '' : pagePath}/_payload.json`).length;
  const documents = () => requested.filter((url) => !/\.\w+$|\/_payload\.json$|\/api\//.test(new URL(url).pathname));
  return { page, context, consoleLog, payloads, documents };
}

/** Waits for `pagePath`'s payload answer, requested already or still to come. */
async function payloadAnswered(page: Page, pagePath: string) {
  const url = `${base}${pagePath === '/' ? '' : pagePath}/_payload.json`;
  await page.waitForResponse((response) => withoutBuild(response.url()) === url);
}

const heading = (page: Page, text: string) =>
  page.waitForFunction((expected) => document.querySelector('main h1')?.textContent === expected, text);

t.test('the page just loaded asks nothing; a click after a prefetch asks nothing more', async (t) => {
  // A clock the test can move: the document's data counts as an answer for 5 s (FRESH_MS).
  const { page, context, consoleLog, payloads } = await open('/', { beforeLoad: (page) => page.clock.install() });
  t.equal(payloads('/'), 0, 'no payload for the page the server rendered');

  const bonus = page.locator('a[data-nav="bonus"]').first();
  // Its link is in view, so it may be prefetched already; a hover makes sure, and the answer is in.
  const answered = payloads('/bonus') === 1 ? Promise.resolve() : payloadAnswered(page, '/bonus');
  await bonus.hover();
  await answered;
  t.equal(payloads('/bonus'), 1, 'prefetched once');
  await bonus.click();
  await page.waitForURL(`${base}/bonus`);
  await page.locator('main h1').waitFor();
  await settled(page);
  t.equal(payloads('/bonus'), 1, 'prefetch and navigation: one request in all');

  // Back to the page the server rendered, its data older than 5 s: asked for once (by the link to
  // it in view, or by the navigation).
  const homeTitle = await page.evaluate(() => document.title);
  await page.clock.fastForward(FRESH_MS + 1_000);
  await page.goBack();
  await page.waitForFunction((bonusTitle) => location.pathname === '/' && document.title !== bonusTitle, homeTitle);
  await page.locator('main h1').waitFor();
  await settled(page);
  t.equal(payloads('/'), 1, 'one request for the navigation back');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('a click with no prefetch before it: one request', async (t) => {
  const { page, context, payloads } = await open('/asdas');
  const link = page.locator('[data-testid="article-card"] .card-title a').last();
  const target = (await link.getAttribute('href'))!;
  const title = (await link.textContent())!;
  t.equal(payloads(target), 0, 'the link is out of view and was not pointed at');
  // A click without hover or focus (element.click()): nothing prefetches it.
  await link.evaluate((anchor: HTMLAnchorElement) => anchor.click());
  await page.waitForURL(`${base}${target}`);
  await heading(page, title);
  await settled(page);
  t.equal(payloads(target), 1, "the navigation's own request, once");
  await context.close();
});

t.test("a click while the hover's prefetch is in flight joins it: one request", async (t) => {
  const held: Route[] = [];
  let heldOne: () => void = () => undefined;
  const oneHeld = new Promise<void>((done) => (heldOne = done));
  let target = '';
  const { page, context, payloads } = await open('/asdas', {
    beforeLoad: (page) =>
      page.route(payloadRoutes, async (route) => {
        if (target && withoutBuild(route.request().url()) === `${base}${target}/_payload.json`) {
          held.push(route);
          heldOne();
        } else await route.continue();
      }),
  });
  const link = page.locator('[data-testid="article-card"] .card-title a').last();
  target = (await link.getAttribute('href'))!;
  const title = (await link.textContent())!;
  await link.dispatchEvent('mouseover');
  await oneHeld;
  await link.click();
  // The navigation waits on the held answer; a second request would have arrived by now.
  await settled(page, 3);
  t.equal(payloads(target), 1, 'the click asked nothing of its own');
  await Promise.all(held.map((route) => route.continue()));
  await page.waitForURL(`${base}${target}`);
  await heading(page, title);
  await settled(page);
  t.equal(payloads(target), 1, 'one request in all');
  await context.close();
});

t.test("the account page: none when loaded, one per navigation to it (its live data joins the loader's)", async (t) => {
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: 'counted@example.com',
      password: 'a counted passphrase 1',
      displayName: 'Counted',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    },
  });
  t.equal(registered.statusCode, 201);
  const token = registered.cookies.find((cookie) => cookie.name === 'token')!.value;
  // A clock the test can move: an answer stands in for 5 s (FRESH_MS), then a visit asks again.
  const { page, context, consoleLog, payloads, documents } = await open('/account', {
    token,
    beforeLoad: (page) => page.clock.install(),
  });
  await page.locator('[data-testid="email-status"]').waitFor();
  t.equal(payloads('/account'), 0, 'the account page just loaded asks nothing, its live data neither');

  await page.locator('a[data-nav="home"]').first().click();
  await page.waitForURL(`${base}/`);
  await page.locator('main h1').waitFor();
  await settled(page);
  t.equal(payloads('/'), 1, 'home: one request');

  await page.clock.fastForward(FRESH_MS + 1_000);
  await page.locator('a[data-nav="account"]').first().click();
  await page.waitForURL(`${base}/account`);
  await page.locator('[data-testid="email-status"]').waitFor();
  await settled(page, 3);
  t.equal(payloads('/account'), 1, 'back to the account page: one request, which its live data does not repeat');
  t.same(documents(), [`${base}/account`], 'no document after the first');
  t.same(consoleLog.problems(), []);
  await context.close();
});
