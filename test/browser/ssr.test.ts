import t from 'tap';
import type { Page } from 'playwright-core';
import { browserUserAgent, googlebot } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest, payloadRoutes } from '../helpers/browser.ts';

const { base, browser } = await startBrowserTest(t);

// Headless Chromium calls itself HeadlessChrome, which isbot rightly counts as a bot.
async function open(path: string, userAgent = browserUserAgent, beforeLoad?: (page: Page) => Promise<unknown>) {
  const context = await browser.newContext({ userAgent });
  const page = await context.newPage();
  await beforeLoad?.(page);
  const consoleLog = collectConsole(page);
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
  return { page, context, consoleLog, documents };
}

const heading = (page: Page) => page.locator('main h1').first().textContent();

t.test('hydrates without console errors or hydration warnings', async (t) => {
  for (const path of ['/', '/th', '/asdas', '/th/asdas/rtp-explained', '/bonus', '/author', '/login']) {
    const { consoleLog, context } = await open(path);
    t.same(consoleLog.problems(), [], `${path} hydrates cleanly`);
    await context.close();
  }
  const { consoleLog, context } = await open('/no/such/page');
  t.same(
    consoleLog.problems(),
    ['error: Failed to load resource: the server responded with a status of 404 (Not Found)'],
    'a 404 page hydrates cleanly (the browser only reports the status of the document)',
  );
  await context.close();
});

t.test('navigates on the client without reloading the document', async (t) => {
  const { page, documents, consoleLog, context } = await open('/');
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.click('nav.main-nav a[data-nav="bonus"]');
  await page.waitForURL(`${base}/bonus`);
  await page.waitForFunction(() => document.title === 'How bonuses work · Asdas');
  t.equal(await heading(page), 'How bonuses work');
  // The title is written at once, the other tags once contract/seo.ts has loaded (client/components/document-head.tsx).
  await page.waitForFunction(
    () => document.querySelector('link[rel="canonical"]')?.getAttribute('href') === 'http://localhost:3000/bonus',
  );
  t.pass('the head follows the page');
  await page.click('nav.main-nav a[data-nav="author"]');
  await page.waitForURL(`${base}/author`);
  t.equal(
    await page.evaluate(() => (window as unknown as { marker?: number }).marker),
    42,
    'same window: no full reload',
  );
  t.same(documents, [`${base}/`], 'only the first page was a document request');
  await page.goBack();
  await page.waitForURL(`${base}/bonus`);
  await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'How bonuses work');
  t.pass('back button works');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('the language switch keeps the path, switches the language and remembers it', async (t) => {
  const { page, context } = await open('/bonus');
  await page.click('[data-testid="language-switch"]');
  await page.waitForURL(`${base}/th/bonus`);
  await page.waitForFunction(() => document.documentElement.lang === 'th');
  t.equal(await page.locator('nav.main-nav a[data-nav="home"]').textContent(), 'หน้าแรก');
  t.equal(await page.locator('[data-testid="language-switch"]').getAttribute('href'), '/bonus');
  const cookies = await context.cookies();
  t.equal(cookies.find((cookie) => cookie.name === 'lang')?.value, 'th', 'the choice is kept in a cookie');
  await context.close();
});

t.test('a slug the article route refuses: the 404 page inside the layout, Clear errors goes to /', async (t) => {
  const { page, context } = await open('/asdas/Not_A_Slug');
  await page.waitForSelector('[data-testid="inline-error"]');
  t.equal(await page.locator('header.site-header').count(), 1, 'inside the layout');
  t.equal(
    await page.locator('[data-testid="error-message"]').textContent(),
    'Page Not Found: /asdas/Not_A_Slug',
    "the spec's message",
  );
  await page.click('[data-testid="clear-errors"]');
  await page.waitForURL(`${base}/`);
  await page.waitForSelector('.home h1');
  t.equal(await page.locator('[data-testid="inline-error"]').count(), 0, 'the error is gone');
  await context.close();
});

t.test('a page that does not exist renders inside the layout', async (t) => {
  const { page, context } = await open('/no/such/page');
  await page.waitForSelector('[data-testid="inline-error"]');
  t.equal(await page.locator('header.site-header').count(), 1);
  t.equal(await page.locator('main h1').textContent(), "We couldn't find that page");
  await context.close();
});

t.test('a client-side error: people get the error screen, a bot keeps the server HTML', async (t) => {
  const failPayload = async (page: Page) =>
    page.route(payloadRoutes, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"statusCode":500,"message":"boom","fatal":true}',
      }),
    );

  // Before the page loads: links prefetch their payloads once in view, and a click uses the prefetched one.
  const person = await open('/', browserUserAgent, failPayload);
  await person.page.waitForSelector('html[data-visitor="person"]');
  await person.page.click('nav.main-nav a[data-nav="bonus"]');
  await person.page.waitForSelector('[data-testid="error-screen"]');
  t.match(await person.page.textContent('[data-testid="error-message"]'), 'boom');
  // The spec's Clear errors: the error goes and the visitor is at /.
  await person.page.unroute(payloadRoutes);
  await person.page.click('text=Clear errors');
  await person.page.waitForURL(`${base}/`);
  await person.page.waitForSelector('.home h1');
  t.equal(await person.page.locator('[data-testid="error-screen"]').count(), 0, 'Clear errors clears it');
  await person.context.close();

  const bot = await open('/', googlebot);
  await bot.page.waitForSelector('html[data-visitor="bot"]');
  t.equal(await bot.page.evaluate(() => window.__ASDAS__?.isBot), undefined, "the HTML is a person's too");
  const homeHeading = await heading(bot.page);
  await failPayload(bot.page);
  // The failed payload's answer arrives when it arrives: wait for the log line it leads to.
  const logged = bot.page.waitForEvent('console', {
    predicate: (message) => message.text().includes('Not rendering error page for bot'),
  });
  await bot.page.click('nav.main-nav a[data-nav="bonus"]');
  t.ok(await logged, 'the error is logged instead');
  await settled(bot.page);
  t.equal(await bot.page.locator('[data-testid="error-screen"]').count(), 0, 'no error page for the bot');
  t.equal(await heading(bot.page), homeHeading, 'the server HTML is still shown');
  await bot.context.close();
});
