import t from 'tap';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { backToTopIcon } from '../../client/components/back-to-top.tsx';
import { languageSwitchIcon, navigationIcons } from '../../contract/app-icons.ts';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, startBrowserTest } from '../helpers/browser.ts';

// The production build in dist/ (run `node scripts/build.mjs` first).
const { base, browser } = await startBrowserTest(t);

const article = '/asdas/rtp-explained';
const iconSelector = (name: string) => `svg[data-icon="${name}"]`;
// A short window, so the article is several screens long and the back-to-top button can appear.
const shortWindow = { width: 900, height: 360 };

async function open(path: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ userAgent: browserUserAgent, ...options });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const iconRequests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/_nuxt_icon/') || url.hostname === 'api.iconify.design') {
      iconRequests.push(url.origin === base ? `${url.pathname}${url.search}` : url.href);
    }
  });
  return { context, page, consoleLog, iconRequests };
}

async function hydrated(page: Page, path: string) {
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
}

/** Scrolls to the end of the page, which shows the back-to-top button with its client-only icon. */
async function scrollDown(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForSelector('[data-testid="back-to-top"]');
}

const iconBox = (page: Page, name: string) =>
  page
    .locator(`nav ${iconSelector(name)}, button ${iconSelector(name)}`)
    .first()
    .boundingBox();

t.test('with JavaScript off, the icons are in the server HTML and take their space', async (t) => {
  const { context, page, iconRequests } = await open('/', { javaScriptEnabled: false });
  await page.goto(`${base}/`);
  for (const [key, name] of Object.entries(navigationIcons)) {
    const svg = page.locator(`[data-nav="${key}"] ${iconSelector(name)}`);
    t.equal(await svg.count(), 1, `${key} has its icon`);
    const box = await svg.boundingBox();
    t.ok(
      box && box.width > 10 && box.height > 10 && box.width === box.height,
      `${name} is drawn at text size (${box?.width}x${box?.height})`,
    );
    t.equal(await svg.locator('path').count(), 1, `${name} has its path`);
  }
  const mark = page.locator(`[data-testid="language-switch"] ${iconSelector(languageSwitchIcon)}`);
  t.ok(((await mark.boundingBox())?.width ?? 0) > 10, 'the language switch shows its mark');
  t.equal(await page.locator('[data-testid="back-to-top"]').count(), 0, 'no back-to-top button without JavaScript');
  t.same(iconRequests, [], 'nothing fetched');
  await context.close();
});

t.test('hydration keeps the server SVG: same size, no icon request, no warnings', async (t) => {
  const off = await open('/', { javaScriptEnabled: false });
  await off.page.goto(`${base}/`);
  const before = await iconBox(off.page, 'mdi:home');
  await off.context.close();

  const { context, page, consoleLog, iconRequests } = await open('/');
  await hydrated(page, '/');
  t.same(await iconBox(page, 'mdi:home'), before, 'the icon has the same place and size');
  t.same(consoleLog.problems(), [], 'no hydration warnings');
  // Client navigation draws the other language's switch from the page's own icon data.
  await page.click('[data-testid="language-switch"]');
  await page.waitForURL(`${base}/th`);
  await page.waitForSelector(`[data-testid="language-switch"][lang="en"] ${iconSelector(languageSwitchIcon)} path`);
  t.same(iconRequests, [], 'icons known to the server are never fetched');
  await context.close();
});

t.test('a client-only icon loads through /api/_nuxt_icon/', async (t) => {
  const { context, page, consoleLog, iconRequests } = await open(article, { viewport: shortWindow });
  await hydrated(page, article);
  t.same(iconRequests, [], 'nothing fetched before it is needed');
  const answer = page.waitForResponse((response) => response.url().includes('/api/_nuxt_icon/'));
  await scrollDown(page);
  t.equal((await answer).status(), 200);
  const svg = page.locator(`[data-testid="back-to-top"] ${iconSelector(backToTopIcon)}`);
  await svg.locator('path').waitFor();
  t.equal(await svg.getAttribute('viewBox'), '0 0 24 24');
  const box = await svg.boundingBox();
  t.equal(Math.round(box?.width ?? 0), 24, 'drawn at its size (1.5rem)');
  t.same(iconRequests, [`/api/_nuxt_icon/mdi.json?icons=arrow-up`], 'one request, to our endpoint');

  await page.click('[data-testid="back-to-top"]');
  await page.waitForFunction(() => window.scrollY === 0);
  await page.waitForSelector('[data-testid="back-to-top"]', { state: 'detached' });
  await scrollDown(page);
  await svg.locator('path').waitFor();
  t.equal(iconRequests.length, 1, 'shown again from memory');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('when the endpoint fails, the public Iconify API is asked once', async (t) => {
  const { context, page, consoleLog, iconRequests } = await open(article, { viewport: shortWindow });
  await page.route('**/api/_nuxt_icon/**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"message":"boom"}' }),
  );
  await page.route('https://api.iconify.design/**', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: JSON.stringify({
        prefix: 'mdi',
        icons: { 'arrow-up': { body: '<path fill="currentColor" d="M1 2h3v4z"/>' } },
        width: 24,
        height: 24,
      }),
    }),
  );
  await hydrated(page, article);
  await scrollDown(page);
  const path = page.locator(`[data-testid="back-to-top"] ${iconSelector(backToTopIcon)} path`);
  await path.waitFor();
  t.equal(await path.getAttribute('d'), 'M1 2h3v4z', 'drawn from the public API answer');
  t.same(iconRequests, [
    '/api/_nuxt_icon/mdi.json?icons=arrow-up',
    'https://api.iconify.design/mdi.json?icons=arrow-up',
  ]);
  t.same(
    consoleLog.problems(),
    ['error: Failed to load resource: the server responded with a status of 500 (Internal Server Error)'],
    'only the browser noting the failed request',
  );
  await context.close();
});

t.test('a missing icon is an empty box of the right size, never a crash', async (t) => {
  for (const scenario of [
    'the endpoint has no such icon (404)',
    'the endpoint and the public API both fail',
  ] as const) {
    const { context, page, consoleLog, iconRequests } = await open(article, { viewport: shortWindow });
    if (scenario.includes('404')) {
      await page.route('**/api/_nuxt_icon/**', (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: '{"statusCode":404,"code":"ICONS_NOT_FOUND","message":"No such icons"}',
        }),
      );
    } else {
      await page.route('**/api/_nuxt_icon/**', (route) => route.abort('connectionrefused'));
      await page.route('https://api.iconify.design/**', (route) => route.abort('connectionrefused'));
    }
    await hydrated(page, article);
    await scrollDown(page);
    const svg = page.locator(`[data-testid="back-to-top"] ${iconSelector(backToTopIcon)}[data-icon-state="missing"]`);
    await svg.waitFor();
    const box = await svg.boundingBox();
    t.same([Math.round(box?.width ?? 0), Math.round(box?.height ?? 0)], [24, 24], `${scenario}: a 24x24 box`);
    t.equal(await svg.locator('*').count(), 0, 'with nothing in it');
    t.same(
      iconRequests,
      scenario.includes('404')
        ? ['/api/_nuxt_icon/mdi.json?icons=arrow-up']
        : ['/api/_nuxt_icon/mdi.json?icons=arrow-up', 'https://api.iconify.design/mdi.json?icons=arrow-up'],
      scenario.includes('404') ? 'a 404 is final: no fallback' : 'each asked once',
    );
    t.notOk(
      consoleLog.problems().some((problem) => !problem.startsWith('error: Failed to load resource')),
      'no script error',
    );
    // The page still works.
    await page.click('[data-testid="back-to-top"]');
    await page.waitForFunction(() => window.scrollY === 0);
    await context.close();
  }
});
