import t from 'tap';
import type { Page } from 'playwright-core';
import { collectConsole, settled, startBrowserTest, visitors } from '../helpers/browser.ts';

// Back and Forward bring the visitor back to where they were on each page (react-router's scroll
// restoration, once the page's data has drawn it at its height), a new page starts at its top or
// at its #section, and moving focus to the new page's heading never scrolls away from either.

const { base, browser } = await startBrowserTest(t);
const { newContext, visit } = visitors(browser, base, '');

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** Scrolls as the visitor would, and waits until the page is there. */
async function scrollTo(page: Page, y: number) {
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await page.waitForFunction((top) => window.scrollY === top, y);
}

/** The navigation as the visitor perceives its end: the address, the new title announced, and then quiet. */
async function arrived(page: Page, path: string, title: RegExp) {
  await page.waitForURL(`${base}${path}`);
  await page.waitForFunction(
    (source) =>
      new RegExp(source).test(document.title) &&
      document.querySelector('[data-testid="route-announcer"]')?.textContent === document.title,
    title.source,
  );
  await settled(page, 3);
}

const focusOnHeading = (page: Page) => page.evaluate(() => document.activeElement?.matches('#main h1') ?? false);

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  t.test(`${viewport.width} px: Back and Forward restore the scroll position`, async (t) => {
    const context = await newContext(viewport);
    const page = await context.newPage();
    const consoleLog = collectConsole(page);
    await visit(page, '/asdas');
    t.ok(
      (await page.evaluate(() => document.documentElement.scrollHeight)) >= 860 + viewport.height,
      'the list is long enough',
    );
    await scrollTo(page, 860);

    // A card in view, so the click itself scrolls nothing.
    const article = await page.evaluate(() => {
      const links = [...document.querySelectorAll<HTMLAnchorElement>('.article-card .card-title a')];
      const inView = links.find((link) => {
        const box = link.getBoundingClientRect();
        return box.top > 0 && box.bottom < window.innerHeight;
      });
      inView?.setAttribute('data-test-pick', '');
      return inView ? new URL(inView.href).pathname : null;
    });
    if (!article) throw new Error('no article card in view at 860 px');
    await page.click('[data-test-pick]');
    await arrived(page, article, /^(?!Articles)/);
    t.equal(await scrollY(page), 0, 'the article starts at its top');
    t.ok(await focusOnHeading(page), "focus on the article's heading");
    await scrollTo(page, 400);

    await page.goBack();
    await arrived(page, '/asdas', /^Articles/);
    t.equal(await scrollY(page), 860, 'Back: the list where it was left');
    t.ok(await focusOnHeading(page), "focus on the list's heading, without scrolling to it");

    await page.goForward();
    await arrived(page, article, /^(?!Articles)/);
    t.equal(await scrollY(page), 400, 'Forward: the article where it was left');

    // Another page of the list is a new page: its top; Back brings page 1 back where it was.
    await page.goBack();
    await arrived(page, '/asdas', /^Articles/);
    t.equal(await scrollY(page), 860, 'Back again: the list still where it was left');
    const next = page.locator('.pagination a[rel="next"]');
    await next.scrollIntoViewIfNeeded();
    const atPagination = await scrollY(page);
    await next.click();
    await arrived(page, '/asdas?page=2', /^Articles/);
    t.equal(await scrollY(page), 0, 'page 2 of the list starts at its top');
    await page.goBack();
    await arrived(page, '/asdas', /^Articles/);
    t.equal(await scrollY(page), atPagination, 'Back from page 2: page 1 where it was left');
    t.same(consoleLog.problems(), []);
    await context.close();
  });
}

t.test('a new page opens at its #section, and Back returns to the scrolled page', async (t) => {
  const context = await newContext({ width: 1366, height: 900 });
  const page = await context.newPage();
  await visit(page, '/bonus');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await scrollTo(page, height - 900);
  // The footer's "Where to get help": another page, at its section.
  await page.click('.site-footer a[href$="#where-to-get-help"]');
  await arrived(page, '/play-responsibility#where-to-get-help', /./);
  const section = await page.evaluate(() => {
    const target = document.getElementById('where-to-get-help')!;
    return {
      top: target.getBoundingClientRect().top,
      margin: parseFloat(getComputedStyle(target).scrollMarginTop) || 0,
      atEnd: window.scrollY === document.documentElement.scrollHeight - window.innerHeight,
    };
  });
  // Near the page's end the window goes as far as the page lets it.
  t.ok(
    Math.abs(section.top - section.margin) <= 2 || (section.atEnd && section.top > 0 && section.top < 900 / 2),
    `the section at the top of the window, or as near as the page allows (${section.top} px)`,
  );
  t.ok((await scrollY(page)) > 0, 'so the page is scrolled');
  await page.goBack();
  await arrived(page, '/bonus', /^How bonuses work/);
  t.equal(await scrollY(page), height - 900, 'Back: the bonus page at its end, where it was');
  await context.close();
});
