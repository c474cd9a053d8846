import t from 'tap';
import type { Page, Request, Route } from 'playwright-core';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest, withoutBuild, payloadRoutes } from '../helpers/browser.ts';

// Content pages in Chromium: client navigation by payload, the ToC, link prefetch and its limit.
const { base, browser } = await startBrowserTest(t);

// Headless Chromium calls itself HeadlessChrome, which isbot counts as a bot (and bots get no prefetch).
async function open(path: string, beforeLoad?: (page: Page) => Promise<unknown>) {
  const context = await browser.newContext({ userAgent: browserUserAgent, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await beforeLoad?.(page);
  const consoleLog = collectConsole(page);
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
  const documents = () =>
    requests.filter((request) => request.resourceType() === 'document').map((request) => request.url());
  const payloads = (pagePath?: string) =>
    requests
      .map((request) => withoutBuild(request.url()))
      .filter(
        (url) =>
          url.endsWith('/_payload.json') && (pagePath === undefined || url === `${base}${pagePath}/_payload.json`),
      );
  /** Waits until the page has requested `pagePath`'s payload and has its answer. */
  const payloadArrived = async (pagePath: string) => {
    const url = `${base}${pagePath}/_payload.json`;
    const request =
      requests.find((candidate) => withoutBuild(candidate.url()) === url) ??
      (await page.waitForRequest((candidate) => withoutBuild(candidate.url()) === url));
    await request.response();
  };
  return { page, context, consoleLog, documents, payloads, payloadArrived };
}

const heading = (page: Page) => page.locator('main h1').first().textContent();

t.test('from the list to an article: one _payload.json, no document', async (t) => {
  const { page, context, documents, payloads, payloadArrived, consoleLog } = await open('/asdas');
  const link = page.locator('[data-testid="article-card"] .card-title a').first();
  const target = (await link.getAttribute('href'))!;
  const title = await link.textContent();

  // The card is in view: its payload is prefetched, and the navigation uses that answer.
  await payloadArrived(target);
  await link.click();
  await page.waitForURL(`${base}${target}`);
  await page.waitForFunction((expected) => document.querySelector('main h1')?.textContent === expected, title);
  t.equal(await heading(page), title, 'the article is shown');
  t.same(documents(), [`${base}/asdas`], 'no document request after the first');
  t.same(payloads(target), [`${base}${target}/_payload.json`], 'the payload was fetched once (prefetch reused)');

  // A link in the article's text navigates on the client too.
  const proseLink = page.locator('.prose a[href^="/asdas/"]').first();
  if ((await proseLink.count()) > 0) {
    const href = (await proseLink.getAttribute('href'))!;
    await proseLink.click();
    await page.waitForURL(`${base}${href}`);
    await page.waitForFunction(() => document.querySelector('[data-testid="byline-author"]') !== null);
    t.same(documents(), [`${base}/asdas`], 'a link in the Markdown does not load a document');
    t.equal(payloads(href).length, 1, 'its payload once');
  }
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('a link out of view prefetches its page on hover, not before', async (t) => {
  const { page, context, payloads, payloadArrived } = await open('/asdas');
  const link = page.locator('[data-testid="article-card"] .card-title a').last();
  const target = (await link.getAttribute('href'))!;
  t.ok(
    await link.evaluate((anchor) => anchor.getBoundingClientRect().top > window.innerHeight),
    'the last card starts below the fold',
  );
  // The first card's prefetch shows the links are watched; the last one's page is not asked for.
  const first = await page.locator('[data-testid="article-card"] .card-title a').first().getAttribute('href');
  await payloadArrived(first!);
  t.same(payloads(target), [], 'nothing asked for the link out of view');
  // A pointer over it (React's onMouseEnter), without scrolling it into view.
  await link.dispatchEvent('mouseover');
  await payloadArrived(target);
  t.same(payloads(target), [`${base}${target}/_payload.json`], 'its payload, once');
  await context.close();
});

t.test('the pagination navigates on the client and reuses the list payload', async (t) => {
  const { page, context, documents, payloads } = await open('/asdas');
  const firstTitle = () => page.locator('[data-testid="article-card"] .card-title a').first().textContent();
  const firstOnPage1 = await firstTitle();
  await page.click('[data-testid="pagination"] a[rel="next"]');
  await page.waitForURL(`${base}/asdas?page=2`);
  await page.waitForFunction(
    (first) => document.querySelector('[data-testid="article-card"] .card-title a')?.textContent !== first,
    firstOnPage1,
  );
  t.equal(await page.getAttribute('[data-testid="pagination"] a[aria-current="page"]', 'href'), '/asdas?page=2');
  t.equal(await page.locator('[data-testid="pagination"] a[rel="prev"]').getAttribute('href'), '/asdas');
  t.ok(await page.evaluate(() => window.scrollY === 0), 'the new page of the list starts at its top');

  await page.click('[data-testid="pagination"] a[rel="prev"]');
  await page.waitForURL(`${base}/asdas`);
  await page.waitForFunction(
    (first) => document.querySelector('[data-testid="article-card"] .card-title a')?.textContent === first,
    firstOnPage1,
  );
  t.same(documents(), [`${base}/asdas`], 'no document');
  t.ok(
    payloads('/asdas').length <= 1,
    'the list payload (the same for every ?page) is fetched at most once for both changes',
  );
  await context.close();
});

t.test('ToC links scroll to their headings and the active item follows the scroll', async (t) => {
  for (const path of ['/asdas/rtp-explained', '/th/asdas/rtp-explained']) {
    const { page, context, documents, payloads, consoleLog } = await open(path);
    const ids = await page.$$eval('nav.toc a', (links) =>
      links.map((link) => decodeURIComponent(link.getAttribute('href')!.slice(1))),
    );
    t.ok(ids.length >= 3, `${path}: a ToC`);
    const target = ids[Math.floor(ids.length / 2)]!;
    // Only this page's own payload: scrolling brings other links into view, which prefetch theirs.
    const requestsBefore = payloads(path).length;

    await page.locator('nav.toc a').nth(ids.indexOf(target)).click();
    await page.waitForFunction((id) => decodeURIComponent(location.hash.slice(1)) === id, target);
    await page.waitForFunction((id) => Math.abs(document.getElementById(id)!.getBoundingClientRect().top) < 40, target);
    const top = await page.evaluate((id) => document.getElementById(id)!.getBoundingClientRect().top, target);
    t.ok(top >= 0 && top < 40, `${path}: the heading is at the top after the click (${Math.round(top)} px)`);
    t.equal(payloads(path).length, requestsBefore, 'a hash change does not load the page data again');
    t.same(documents(), [`${base}${path}`], 'and no document');
    await page.waitForFunction(
      (id) =>
        decodeURIComponent(
          document.querySelector('nav.toc a[aria-current="true"]')?.getAttribute('href')?.slice(1) ?? '',
        ) === id,
      target,
    );
    t.pass('the clicked heading is the active item');

    // Scrolling by hand moves the highlight.
    const first = ids[0]!;
    await page.evaluate(
      (id) => window.scrollTo(0, document.getElementById(id)!.getBoundingClientRect().top + window.scrollY - 10),
      first,
    );
    await page.waitForFunction(
      (id) =>
        decodeURIComponent(
          document.querySelector('nav.toc a[aria-current="true"]')?.getAttribute('href')?.slice(1) ?? '',
        ) === id,
      first,
    );
    t.equal(await page.locator('nav.toc a.active').count(), 1, 'one active item');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.querySelector('nav.toc a[aria-current="true"]') === null);
    t.pass('above the first heading nothing is active');
    t.same(consoleLog.problems(), []);
    await context.close();
  }
});

const routeChunk = /\/assets\/(home|article-list|article|login|registration)-[\w-]+\.js$/;

t.test('no more than 5 prefetches in flight on a page with many links', async (t) => {
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: string[] = [];
  let firstPrefetch: () => void = () => undefined;
  const prefetched = new Promise<void>((done) => (firstPrefetch = done));
  // One prefetch is a page's payload or its route chunk; the chunks a route chunk imports load
  // with it (the module loader asks for them, not the limiter), so they are slowed but not counted.
  const isPrefetch = (url: string) => url.endsWith('/_payload.json') || routeChunk.test(url);
  const slow = async (route: Route) => {
    const url = withoutBuild(route.request().url());
    seen.push(url);
    if (url.endsWith('/_payload.json')) firstPrefetch();
    const counted = isPrefetch(url);
    if (counted) inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 250));
      await route.fulfill({ response });
    } finally {
      if (counted) inFlight -= 1;
    }
  };
  const { page, context, consoleLog } = await open('/table-of-content', async (page) => {
    await page.route(payloadRoutes, slow);
    await page.route('**/assets/*.js', slow);
  });
  // Links are watched once the browser is idle after hydration: wait for the first prefetch, then
  // bring every link into view and wait until nothing new is asked for.
  await prefetched;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 400) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await settled(page, 1);
  }
  // Done when nothing is in flight and an idle page asks for nothing new.
  for (let last = -1; last !== seen.length || inFlight > 0;) {
    last = seen.length;
    if (inFlight > 0) await new Promise<void>((done) => page.once('requestfinished', () => done()));
    await settled(page);
  }
  // The page's own code loads before hydration; the other pages' chunks only by prefetch, and the
  // account pages' (Log in, Register) only on intent: none here.
  const payloadUrls = seen.filter((url) => url.endsWith('/_payload.json'));
  const chunkUrls = seen.filter((url) => routeChunk.test(url));
  t.ok(payloadUrls.length >= 20, `payloads prefetched (${payloadUrls.length})`);
  t.equal(chunkUrls.length, 3, 'the route chunk of every other reader page (home, list, article)');
  t.equal(new Set(payloadUrls).size, payloadUrls.length, 'each payload once');
  t.equal(new Set(chunkUrls).size, chunkUrls.length, 'each chunk once');
  t.notOk(payloadUrls.includes(`${base}/table-of-content/_payload.json`), 'not the page itself');
  t.ok(maxInFlight <= 5, `at most 5 at a time (max ${maxInFlight})`);
  t.equal(maxInFlight, 5, 'the limit is reached (the test measures something)');
  t.same(consoleLog.problems(), []);
  await context.close();
});

/** Waits until the page has asked for nothing new over idle rounds and nothing is in flight. */
async function quiet(page: Page, seen: () => number, inFlight: () => number) {
  for (let last = -1; last !== seen() || inFlight() > 0;) {
    last = seen();
    if (inFlight() > 0) await new Promise<void>((done) => page.once('requestfinished', () => done()));
    await settled(page);
  }
}

const accountCode =
  /\/assets\/(login|registration|account-form|account|forgot-password|play|en-account|th-account)-[\w-]+\.js$/;

t.test('a desktop article prefetches what its visible links need, and account code only on intent', async (t) => {
  for (const path of ['/asdas/rtp-explained', '/th/asdas/rtp-explained']) {
    const urls: string[] = [];
    let inFlight = 0;
    const { page, context, payloadArrived } = await open(path, async (page) => {
      page.on('request', (request) => {
        urls.push(withoutBuild(request.url()).slice(base.length));
        inFlight += 1;
      });
      page.on('requestfinished', () => (inFlight -= 1));
      page.on('requestfailed', () => (inFlight -= 1));
    });
    const home = path.startsWith('/th') ? '/th' : '';
    // The header's section links are in view: their prefetch shows the links are watched.
    await payloadArrived(`${home}/bonus`);
    await quiet(
      page,
      () => urls.length,
      () => inFlight,
    );
    // Every link drawn in the viewport now (the header's Log in and Register among them).
    const visible = await page.$$eval('a[href^="/"]', (anchors) =>
      anchors
        .filter((anchor) => {
          const box = anchor.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
        })
        .map((anchor) => new URL((anchor as HTMLAnchorElement).href).pathname),
    );
    t.ok(visible.includes(`${home}/login`), `${path}: the Log in link is in view (the test measures something)`);
    const prefetchedPayloads = urls
      .filter((url) => url.endsWith('/_payload.json'))
      .map((url) => url.slice(0, -'/_payload.json'.length) || '/');
    t.ok(prefetchedPayloads.length >= 5, `${path}: payloads of the links in view (${prefetchedPayloads.length})`);
    t.same(
      prefetchedPayloads.filter((pagePath) => !visible.includes(pagePath)),
      [],
      'only for links in view',
    );
    t.same(
      urls.filter((url) => accountCode.test(url)),
      [],
      'no login, registration or account-form code, nor the account strings',
    );

    // A pointer on Log in: now its page's code comes, strings and form included.
    const accountChunks = () => urls.filter((url) => accountCode.test(url));
    const loginChunk = page.waitForRequest((request) => /\/assets\/login-[\w-]+\.js$/.test(request.url()));
    await page.hover('[data-nav="login"]');
    await loginChunk;
    await quiet(
      page,
      () => urls.length,
      () => inFlight,
    );
    const locale = path.startsWith('/th') ? 'th' : 'en';
    t.ok(
      accountChunks().some((url) => url.includes(`/${locale}-account-`)) &&
        accountChunks().some((url) => url.includes('/account-form-')),
      `on intent: ${accountChunks()
        .map((url) => url.replace(/^\/assets\/|-[\w-]{8}\.js$/g, ''))
        .join(', ')}`,
    );
    t.notOk(
      accountChunks().some((url) => url.includes('/registration-')),
      'not Register, which is in view but was not pointed at',
    );
    await context.close();
  }
});

t.test('a click whose link still waits for a prefetch slot fetches the payload once', async (t) => {
  // Issue 29: with the five slots busy the link's prefetch waits in the queue; the click asks for
  // the payload itself, and the queued prefetch, once a slot freed, asked again.
  const held: Route[] = [];
  let hold = true;
  let holding: () => void = () => undefined;
  const fiveHeld = new Promise<void>((done) => (holding = done));
  const { page, context, payloads } = await open('/table-of-content', async (page) => {
    await page.route(payloadRoutes, async (route) => {
      if (!hold) return route.continue();
      held.push(route);
      if (held.length >= 5) holding();
    });
  });
  await fiveHeld;
  const link = page.locator('main a[href^="/asdas/"]').last();
  const target = (await link.getAttribute('href'))!;
  t.same(payloads(target), [], 'its payload is not asked for yet');
  await link.dispatchEvent('mouseover');
  const navigationRequest = page.waitForRequest(
    (request) => withoutBuild(request.url()) === `${base}${target}/_payload.json`,
  );
  await link.click();
  await navigationRequest;
  t.equal(payloads(target).length, 1, 'the click asked for it (the prefetch waits)');
  // Free the slots, keep the navigation's answer back, and let the queued prefetches start.
  const targetRoutes = () =>
    held.filter((route) => withoutBuild(route.request().url()) === `${base}${target}/_payload.json`);
  hold = false;
  for (const route of held.splice(0)) {
    if (withoutBuild(route.request().url()) === `${base}${target}/_payload.json`) held.push(route);
    else await route.continue();
  }
  hold = true;
  let last = -1;
  while (last !== payloads().length) {
    last = payloads().length;
    await settled(page);
    for (const route of held.splice(0)) {
      if (withoutBuild(route.request().url()) === `${base}${target}/_payload.json`) held.push(route);
      else await route.continue();
    }
  }
  t.equal(payloads(target).length, 1, 'the queued prefetch did not ask again');
  hold = false;
  await Promise.all(targetRoutes().map((route) => route.continue()));
  await page.waitForURL(`${base}${target}`);
  await page.waitForSelector('[data-testid="byline-author"]');
  t.same(payloads(target), [`${base}${target}/_payload.json`], 'one click, one request');
  await context.close();
});

t.test('no prefetch for visitors saving data', async (t) => {
  const { page, context, payloads } = await open('/table-of-content', async (page) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'connection', {
        value: { saveData: true, effectiveType: '4g' },
        configurable: true,
      });
    });
  });
  await settled(page, 3);
  t.equal(payloads().length, 0, 'nothing prefetched');
  await page.click('nav.main-nav a[data-nav="bonus"]');
  await page.waitForURL(`${base}/bonus`);
  await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'How bonuses work');
  t.same(payloads(), [`${base}/bonus/_payload.json`], 'navigation still fetches the payload');
  await context.close();
});

const sectionPages = [
  '/',
  '/asdas',
  '/asdas?page=2',
  '/asdas/rtp-explained',
  '/asdas/how-game-fairness-is-tested',
  '/bonus',
  '/terms-apply',
  '/play-responsibility',
  '/author',
  '/author/nicha-srisuk',
  '/table-of-content',
];

t.test('every section page hydrates without console errors, in both languages', async (t) => {
  for (const path of [...sectionPages, ...sectionPages.map((p) => (p === '/' ? '/th' : `/th${p}`))]) {
    const { page, context, consoleLog } = await open(path);
    await page.waitForLoadState('networkidle');
    t.same(consoleLog.problems(), [], `${path} hydrates cleanly (prefetches included)`);
    await context.close();
  }
});
