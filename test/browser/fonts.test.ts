import type { Page, Request } from 'playwright-core';
import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { settled, startBrowserTest } from '../helpers/browser.ts';

// Which font files a page fetches (client/fonts.css, lib/page-fonts.ts), on the production build:
// an English page draws the language switch's "ภาษาไทย" from a 2.6 KB file of those letters, never
// the whole Thai file (27.9 KB), first load or later; a Thai page preloads the Latin file too.

const { base, browser } = await startBrowserTest(t);

const thaiFile = /\/assets\/noto-sans-thai-thai-wght-normal-[\w-]+\.woff2$/;
const labelFile = /\/assets\/noto-sans-thai-switch-label-[\w-]+\.woff2$/;
const latinFile = /\/assets\/noto-sans-latin-wght-normal-[\w-]+\.woff2$/;

const desktop = { width: 1366, height: 900 };
const phone = { width: 390, height: 844 };

async function open(path: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ userAgent: browserUserAgent, viewport });
  const page = await context.newPage();
  const fonts: Request[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'font' || request.url().endsWith('.woff2')) fonts.push(request);
  });
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
  await page.evaluate(() => document.fonts.ready);
  const fetched = (pattern: RegExp) => fonts.filter((request) => pattern.test(request.url())).length;
  return { context, page, fetched };
}

/** The font files Chromium drew an element's text with (DevTools' "Rendered Fonts"). */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts.map((font) => `${font.familyName}${font.isCustomFont ? ' (web font)' : ''}`);
}

const englishPages = ['/', '/asdas', '/asdas/rtp-explained', '/bonus', '/author', '/table-of-content', '/login'];

t.test('an English page never fetches the Thai font file, and draws "ภาษาไทย" from its own', async (t) => {
  for (const viewport of [desktop, phone]) {
    for (const path of englishPages) {
      const { context, page, fetched } = await open(path, viewport);
      const where = `${path} at ${viewport.width} px`;
      t.equal(fetched(thaiFile), 0, `${where}: not the Thai file`);
      t.equal(fetched(labelFile), 1, `${where}: the switch label's file, once`);
      t.equal(fetched(latinFile), 1, `${where}: the Latin file`);
      t.same(
        await renderedFonts(page, '[data-testid="language-switch"] span'),
        ['Noto Sans Thai (web font)'],
        `${where}: the label is drawn in Noto Sans Thai, no fallback for any letter`,
      );
      await context.close();
    }
  }
});

t.test('nor after a visitor moves about: hover, menu, client navigation, scrolling', async (t) => {
  for (const viewport of [desktop, phone]) {
    const { context, page, fetched } = await open('/', viewport);
    await page.hover('[data-testid="language-switch"]');
    if (viewport === phone) await page.click('[data-testid="menu-toggle"]');
    await page.click('[data-nav="table_of_content"]');
    await page.waitForURL(`${base}/table-of-content`);
    await page.locator('main a[href^="/asdas/"]').first().click();
    await page.waitForSelector('[data-testid="byline-author"]');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await settled(page);
    await page.evaluate(() => document.fonts.ready);
    t.equal(fetched(thaiFile), 0, `${viewport.width} px: still not the Thai file`);
    t.equal(fetched(labelFile), 1, 'the label file was not asked again');
    await context.close();
  }
});

t.test(
  "a Thai page preloads the Thai and the Latin files, and switching to English asks for the label's",
  async (t) => {
    const { context, page, fetched } = await open('/th/asdas', desktop);
    const preloads = await page.$$eval('link[rel="preload"][as="font"]', (links) =>
      links.map((link) => (link as HTMLLinkElement).href),
    );
    t.ok(
      preloads.some((href) => thaiFile.test(href)),
      'the Thai file is preloaded',
    );
    t.ok(
      preloads.some((href) => latinFile.test(href)),
      'and the Latin one (the brand, names, numbers: without it they moved the layout)',
    );
    t.notOk(
      preloads.some((href) => labelFile.test(href)),
      'not the English pages’ label file',
    );
    t.same(
      await renderedFonts(page, '[data-testid="language-switch"] span'),
      ['Noto Sans (web font)'],
      '"English" in the Latin font',
    );
    await page.click('[data-testid="language-switch"]');
    await page.waitForURL(`${base}/asdas`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="language-switch"]')?.textContent === 'ภาษาไทย',
    );
    await page.evaluate(() => document.fonts.ready);
    t.same(
      await renderedFonts(page, '[data-testid="language-switch"] span'),
      ['Noto Sans Thai (web font)'],
      'after the switch, "ภาษาไทย" is drawn in Noto Sans Thai',
    );
    t.equal(fetched(thaiFile), 1, 'the Thai file once (the Thai page)');
    await context.close();
  },
);

t.test('an English page preloads the Latin file and the label file only', async (t) => {
  const { context, page } = await open('/', desktop);
  const preloads = await page.$$eval('link[rel="preload"][as="font"]', (links) =>
    links.map((link) => (link as HTMLLinkElement).href),
  );
  t.equal(preloads.length, 2);
  t.ok(preloads.some((href) => latinFile.test(href)) && preloads.some((href) => labelFile.test(href)));
  await context.close();
});
