import type { Locator, Page } from 'playwright-core';
import t from 'tap';
import { startBrowserTest, visitors } from '../helpers/browser.ts';

// What a visitor sees, measured in Chromium on the production build: the layout of the key
// components (boxes and computed styles, so a selector that silently matches nothing fails here),
// the compact phone header on every page type, and the Menu with and without JavaScript, by mouse
// and keyboard, as a screen reader hears it (Chromium's own accessibility tree).

const { app, base, browser } = await startBrowserTest(t);

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email: `layout.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Layout Player',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  },
});
const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
// A play session of the player's own, for the page after the launch.
await app.inject({ method: 'POST', url: '/api/play', headers: { authorization: `Bearer ${token}` } });
const playSessionId = (await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } })).json<{
  playSessions: { id: string }[];
}>().playSessions[0]!.id;

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };
const narrowPhone = { width: 320, height: 568 };

const { newContext, visit } = visitors(browser, base, token);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of every match, failing when there is none: a selector that matches nothing is a failure. */
async function boxes(locator: Locator, what: string): Promise<Box[]> {
  const found = await locator.evaluateAll((elements) =>
    elements.map((element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    }),
  );
  if (found.length === 0) throw new Error(`nothing on the page is ${what}`);
  return found;
}

const style = (locator: Locator, property: string, pseudo?: string) =>
  locator.evaluate(
    (element, [name, pseudoElement]) => getComputedStyle(element, pseudoElement ?? null).getPropertyValue(name),
    [property, pseudo] as const,
  );

/** Items laid out one after another on one line: same top (within a pixel or two), left to right, not touching. */
function inOneRow(found: Box[], minGap: number): { sameLine: boolean; ordered: boolean; smallestGap: number } {
  const sameLine = found.every((box) => Math.abs(box.y + box.height / 2 - (found[0]!.y + found[0]!.height / 2)) <= 3);
  let ordered = true;
  let smallestGap = Infinity;
  for (let index = 1; index < found.length; index += 1) {
    const gap = found[index]!.x - (found[index - 1]!.x + found[index - 1]!.width);
    if (gap < minGap) ordered = false;
    smallestGap = Math.min(smallestGap, gap);
  }
  return { sameLine, ordered, smallestGap };
}

/** What Chromium tells screen readers about an element: role, name, expanded. */
async function accessibility(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element matches ${selector}`);
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const node = nodes[0]!;
    const expanded = node.properties?.find((property) => property.name === 'expanded')?.value.value as
      boolean | undefined;
    return { role: node.role?.value as string, name: node.name?.value as string, expanded: expanded ?? false };
  } finally {
    await cdp.detach();
  }
}

// ---------------------------------------------------------------------------------------------
// Components, on a laptop

t.test('desktop: home entry cards in a grid of several columns, no bullets or underlines', async (t) => {
  const context = await newContext(desktop);
  const page = await context.newPage();
  for (const path of ['/', '/th']) {
    await visit(page, path);
    const cards = page.locator('.entry-grid .entry-card');
    const found = await boxes(cards, 'a home entry card');
    t.ok(found.length >= 3, `${path}: ${found.length} entry cards`);
    const firstRow = found.filter((box) => Math.abs(box.y - found[0]!.y) < 2);
    t.ok(firstRow.length >= 3, `${path}: ${firstRow.length} cards side by side on the first row`);
    const widths = firstRow.map((box) => box.width);
    t.ok(Math.max(...widths) - Math.min(...widths) < 2, 'columns of equal width');
    t.ok(
      widths.every((width) => width >= 200),
      'each card is a card, not a word',
    );
    t.equal(await style(page.locator('.entry-grid'), 'display'), 'grid');
    t.equal(await style(page.locator('.entry-grid'), 'list-style-type'), 'none', 'no bullets');
    t.equal(await style(cards.first(), 'text-decoration-line'), 'none', 'cards are not underlined text');
    t.not(await style(cards.first(), 'border-top-width'), '0px', 'with a visible edge');
    // Title and text are separate lines, not "BonusWhat our bonuses offer".
    const title = (await boxes(cards.first().locator('.entry-title'), 'an entry title'))[0]!;
    const text = (await boxes(cards.first().locator('.entry-text'), 'an entry text'))[0]!;
    t.ok(text.y >= title.y + title.height - 1, 'the text is under the title');
  }
  // On a phone the same cards stack in one column.
  await page.setViewportSize(phone);
  const stacked = await boxes(page.locator('.entry-grid .entry-card'), 'a home entry card');
  t.ok(
    stacked.every((box) => Math.abs(box.x - stacked[0]!.x) < 2),
    'phone: one column',
  );
  t.ok(
    stacked.every((box) => box.x + box.width <= phone.width),
    'phone: inside the screen',
  );
  await context.close();
});

t.test('desktop: article meta items separated, breadcrumbs inline, back-to-top a small round control', async (t) => {
  const context = await newContext(desktop);
  const page = await context.newPage();
  for (const path of ['/asdas/how-to-read-bonus-terms', '/th/asdas/how-to-read-bonus-terms']) {
    await visit(page, path);
    const metaItems = page.locator('.page-header .meta > *');
    const meta = inOneRow(await boxes(metaItems, 'an article meta item'), 8);
    t.ok(meta.sameLine, `${path}: author, date and reading time on one line`);
    t.ok(meta.ordered, `${path}: with space between them (smallest gap ${meta.smallestGap.toFixed(1)} px)`);
    t.equal(await metaItems.count(), 3, 'author, date, reading time');
    for (let index = 0; index < 2; index += 1) {
      t.equal(await style(metaItems.nth(index), 'content', '::after'), '"·"', `a separator after item ${index + 1}`);
    }
    t.equal(await style(metaItems.nth(2), 'content', '::after'), 'none', 'none after the last');

    const crumbs = page.locator('.breadcrumbs li');
    const trail = inOneRow(await boxes(crumbs, 'a breadcrumb'), 0);
    t.ok(trail.sameLine && trail.ordered, `${path}: breadcrumbs on one line, in order`);
    t.equal(await style(page.locator('.breadcrumbs ol'), 'list-style-type'), 'none', 'not a numbered list');
    t.equal(await style(crumbs.nth(1), 'content', '::before'), '"›"', 'a › between crumbs');
    t.equal(await crumbs.last().locator('[aria-current="page"]').count(), 1, 'the last crumb is this page');
  }

  // Back to top: absent at the top, then a small round button in the corner that goes back up.
  t.equal(await page.locator('[data-testid="back-to-top"]').count(), 0, 'not shown at the top of the page');
  await page.mouse.wheel(0, 2500);
  const button = page.getByRole('button', { name: 'กลับขึ้นด้านบน' });
  await button.waitFor();
  const box = (await boxes(button, 'the back-to-top button'))[0]!;
  t.ok(
    box.width <= 56 && box.height <= 56 && box.width >= 40,
    `a small control (${box.width}x${box.height}), not a full-width bar`,
  );
  t.ok(
    box.x + box.width > desktop.width - 40 && box.y + box.height > desktop.height - 40,
    'in the bottom right corner',
  );
  t.equal(await style(button, 'position'), 'fixed', 'it stays there while scrolling');
  t.not(await style(button, 'border-top-left-radius'), '0px', 'round');
  await button.click();
  await page.waitForFunction(() => window.scrollY === 0);
  t.pass('it goes back to the top');
  await context.close();
});

t.test('the article list: a grid of cards using the width, meta separated, pagination in a row', async (t) => {
  const context = await newContext(desktop);
  const page = await context.newPage();
  await visit(page, '/asdas');
  const cards = await boxes(page.locator('.article-cards > li'), 'an article card');
  t.ok(cards.length >= 3);
  const firstRow = cards.filter((box) => Math.abs(box.y - cards[0]!.y) <= 2);
  t.ok(firstRow.length >= 3, `${firstRow.length} cards side by side on a desktop, as on the home page`);
  const right = Math.max(...cards.map((box) => box.x + box.width));
  const header = (await boxes(page.locator('.header-row'), 'the header row'))[0]!;
  t.ok(right >= header.x + header.width - 2, 'the grid reaches the width of the header');
  const cardMeta = await boxes(page.locator('.article-card').first().locator('.meta > *'), 'a card meta item');
  const dateAndTime = inOneRow(cardMeta.slice(1), 8);
  t.ok(
    dateAndTime.sameLine && dateAndTime.ordered,
    `date and reading time on one line with space between (${dateAndTime.smallestGap.toFixed(1)} px)`,
  );

  for (const size of [desktop, phone]) {
    await page.setViewportSize(size);
    const pages = inOneRow(await boxes(page.locator('.pagination-pages li'), 'a page number'), 2);
    t.ok(pages.sameLine && pages.ordered, `${size.width}px: page numbers side by side`);
    const steps = await boxes(page.locator('.pagination-step'), 'a previous/next step');
    t.equal(steps.length, 2, 'previous and next');
    const row = inOneRow(
      [steps[0]!, ...(await boxes(page.locator('.pagination-pages'), 'the page list')), steps[1]!],
      2,
    );
    t.ok(row.sameLine && row.ordered, `${size.width}px: previous, the pages and next in one row`);
    t.equal(await style(page.locator('.pagination-pages'), 'list-style-type'), 'none', 'no list numbers');
  }
  const current = page.locator('.pagination-pages a[aria-current="page"]');
  t.equal(await current.textContent(), '1');
  t.not(
    await style(current, 'background-color'),
    await style(page.locator('.pagination-pages a').nth(1), 'background-color'),
    'the current page stands out',
  );
  await context.close();
});

// ---------------------------------------------------------------------------------------------
// The header

const layoutPages: { path: string; user?: boolean }[] = [
  { path: '/' },
  { path: '/asdas' },
  { path: '/asdas/how-to-read-bonus-terms' },
  { path: '/author/daniel-hart' },
  { path: '/table-of-content' },
  { path: '/bonus' },
  { path: '/terms-apply' },
  { path: '/play-responsibility' },
  { path: '/login' },
  { path: '/registration' },
  { path: '/forgot-password' },
  { path: '/no-such-page' },
  { path: '/account', user: true },
  { path: '/play?problem=used', user: true },
  { path: `/play?session=${playSessionId}&remind=30`, user: true },
];

t.test(
  '390x844 and 320x568: the banner is at most 120 px on every page type, Play in it, nothing wider than the screen',
  async (t) => {
    for (const [viewport, user] of [phone, narrowPhone].flatMap((size) =>
      [false, true].map((u) => [size, u] as const),
    )) {
      const context = await newContext(viewport, { user });
      const page = await context.newPage();
      for (const { path } of layoutPages.filter((entry) => Boolean(entry.user) === user)) {
        for (const prefix of ['', '/th']) {
          const url = path === '/' && prefix ? '/th' : `${prefix}${path}`;
          await visit(page, url);
          const banner = (await boxes(page.getByRole('banner'), 'the banner'))[0]!;
          t.ok(banner.height <= 120, `${url}: banner ${banner.height} px`);
          const play = page.locator('header [data-nav="play"]');
          t.ok(await play.isVisible(), `${url}: Play is visible`);
          const playBox = (await boxes(play, 'the Play button'))[0]!;
          t.ok(
            playBox.y + playBox.height <= banner.y + banner.height && playBox.x + playBox.width <= viewport.width,
            `${viewport.width} px, ${url}: inside the banner and the screen`,
          );
          t.notOk(await page.locator('#site-menu').isVisible(), 'the navigation waits behind Menu');
          t.ok(
            await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
            `${viewport.width} px, ${url}: no sideways scrolling (WCAG 1.4.10)`,
          );
        }
      }
      await context.close();
    }
  },
);

t.test('no page scrolls sideways: 320x568 without JavaScript, 768x1024 and 1366x900 with it', async (t) => {
  for (const [viewport, javaScript] of [
    [narrowPhone, false],
    [{ width: 768, height: 1024 }, true],
    [{ width: 1366, height: 900 }, true],
  ] as const) {
    for (const user of [false, true]) {
      const context = await newContext(viewport, { user, javaScript });
      const page = await context.newPage();
      for (const { path } of layoutPages.filter((entry) => Boolean(entry.user) === user)) {
        for (const prefix of ['', '/th']) {
          const url = path === '/' && prefix ? '/th' : `${prefix}${path}`;
          await visit(page, url, javaScript);
          t.ok(
            await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
            `${viewport.width} px${javaScript ? '' : ' without JavaScript'}, ${url}: no sideways scrolling`,
          );
        }
      }
      await context.close();
    }
  }
});

t.test(
  'laptop and tablet: two rows (brand, language, Play and account; then the sections), logged in or out',
  async (t) => {
    for (const user of [false, true]) {
      for (const width of [1280, 768]) {
        const context = await newContext({ width, height: 800 }, { user });
        const page = await context.newPage();
        await visit(page, '/th/bonus');
        const where = `${width}px, ${user ? 'logged in' : 'logged out'}`;
        t.notOk(await page.locator('[data-testid="menu-toggle"]').isVisible(), `${where}: no Menu control`);
        const items = inOneRow(await boxes(page.locator('.main-nav li'), 'a navigation item'), 0);
        t.ok(items.sameLine && items.ordered, `${where}: the six sections in one row`);
        const banner = (await boxes(page.getByRole('banner'), 'the banner'))[0]!;
        t.ok(banner.height <= 120, `${where}: two rows (${banner.height} px)`);
        const brand = (await boxes(page.locator('.brand'), 'the brand'))[0]!;
        const account = await boxes(page.locator('.account-nav a, .account-nav button'), 'an account link');
        const play = (await boxes(page.locator('header [data-nav="play"]'), 'Play'))[0]!;
        t.ok(
          [...account, play].every((box) => box.y < brand.y + brand.height && box.x > brand.x + brand.width),
          `${where}: account links and Play on the brand's row, to its right`,
        );
        t.ok(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
          `${where}: no sideways scrolling`,
        );
        await context.close();
      }
    }
  },
);

t.test('390x844: no meta separator is left at the start of a line', async (t) => {
  const context = await newContext(phone);
  const page = await context.newPage();
  for (const path of [
    '/',
    '/asdas',
    '/asdas/how-to-read-bonus-terms',
    '/asdas/rtp-explained',
    '/author/daniel-hart',
    '/bonus',
    '/th',
    '/th/asdas',
    '/th/asdas/how-to-read-bonus-terms',
    '/th/asdas/rtp-explained',
    '/th/author/daniel-hart',
  ]) {
    await visit(page, path);
    const report = await page.locator('.meta').evaluateAll((metas) =>
      metas.map((meta) => {
        const items = [...meta.children] as HTMLElement[];
        let stranded = 0;
        for (let index = 1; index < items.length; index += 1) {
          const wrapped = items[index]!.getBoundingClientRect().top > items[index - 1]!.getBoundingClientRect().top + 2;
          if (wrapped && getComputedStyle(items[index]!, '::before').content !== 'none') stranded += 1;
        }
        return { items: items.length, stranded };
      }),
    );
    t.ok(
      report.some((meta) => meta.items > 1),
      `${path}: meta lines checked (${report.length})`,
    );
    t.equal(
      report.reduce((sum, meta) => sum + meta.stranded, 0),
      0,
      `${path}: no line starts with a separator`,
    );
  }
  await context.close();
});

for (const javaScript of [true, false]) {
  t.test(
    `390x844, ${javaScript ? 'with' : 'without'} JavaScript: Menu opens and closes by mouse and keyboard, and says so`,
    async (t) => {
      const context = await newContext(phone, { javaScript });
      const page = await context.newPage();
      await visit(page, '/th/bonus', javaScript);
      const summary = page.locator('[data-testid="menu-toggle"]');
      const menu = page.locator('#site-menu');

      const closed = await accessibility(page, '[data-testid="menu-toggle"]');
      t.same(
        closed,
        { role: 'DisclosureTriangle', name: 'เมนู', expanded: false },
        'a disclosure named by its visible label, collapsed',
      );
      t.notOk(await menu.isVisible(), 'closed at first');

      await summary.click();
      await menu.waitFor({ state: 'visible' });
      t.equal((await accessibility(page, '[data-testid="menu-toggle"]')).expanded, true, 'expanded once open');
      const links = await boxes(page.locator('#site-menu .main-nav a'), 'a menu link');
      t.equal(links.length, 6, 'the six sections');
      t.ok(
        links.every((box) => box.height >= 44),
        'each a large target (44 px or more)',
      );
      t.ok(
        links.every((box, index) => index === 0 || box.y > links[index - 1]!.y),
        'one under another',
      );
      t.same(
        await page.locator('#site-menu nav').evaluateAll((navs) => navs.map((nav) => nav.getAttribute('aria-label'))),
        ['บัญชีผู้ใช้', 'เมนูหลัก'],
        'named landmarks, the account links first (the order of the header on wide screens)',
      );
      const afterOpen = (await boxes(page.getByRole('banner'), 'the banner'))[0]!;
      t.ok(afterOpen.height > 120, 'the open menu is part of the banner, under the brand row');

      await summary.click();
      await menu.waitFor({ state: 'hidden' });
      t.equal((await accessibility(page, '[data-testid="menu-toggle"]')).expanded, false, 'collapsed again');

      // Keyboard, from a fresh page: Tab reaches Menu, Enter and Space toggle it, Tab goes on into its links.
      await visit(page, '/th/bonus', javaScript);
      await page.keyboard.press('Tab');
      t.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'ข้ามไปยังเนื้อหา',
        'the first stop is "skip to content"',
      );
      let stops = 0;
      while (!(await summary.evaluate((element) => element === document.activeElement)) && stops < 10) {
        await page.keyboard.press('Tab');
        stops += 1;
      }
      t.ok(stops < 10, `Menu is reached by Tab (${stops + 1} stops)`);
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'visible' });
      await page.keyboard.press('Tab');
      t.equal(
        await page.evaluate(() => document.activeElement?.closest('#site-menu') !== null),
        true,
        'the next stop is in the menu',
      );
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Space');
      await menu.waitFor({ state: 'hidden' });
      t.pass('Space closes it');

      if (javaScript) {
        // Escape closes it and leaves focus on Menu; a navigation closes it too.
        await page.keyboard.press('Enter');
        await menu.waitFor({ state: 'visible' });
        await page.locator('#site-menu .main-nav a').first().focus();
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'hidden' });
        t.ok(
          await summary.evaluate((element) => element === document.activeElement),
          'Escape: closed, focus back on Menu',
        );
        await summary.click();
        await page.locator('#site-menu [data-nav="terms_apply"]').click();
        await page.waitForURL(`${base}/th/terms-apply`);
        await menu.waitFor({ state: 'hidden' });
        t.pass('following a link closes it');
      } else {
        // Without JavaScript a link loads the next page, where Menu starts closed.
        await summary.click();
        await page.locator('#site-menu [data-nav="terms_apply"]').click();
        await page.waitForURL(`${base}/th/terms-apply`);
        t.notOk(await menu.isVisible(), 'the next page starts with Menu closed');
      }
      await context.close();
    },
  );
}

t.test('form fields: edges at 3:1 or more against what is behind them, and a field in error looks it', async (t) => {
  for (const javaScript of [true, false]) {
    const context = await newContext(phone, { javaScript });
    const page = await context.newPage();
    await visit(page, '/th/login', javaScript);
    // Each field's edge colour and the first opaque background behind it, as the browser computes them.
    const colours = await page.locator('.field input:not([type="checkbox"])').evaluateAll((inputs) =>
      inputs.map((input) => {
        let behind = 'rgb(255, 255, 255)';
        for (let node = input.parentElement; node; node = node.parentElement) {
          const background = getComputedStyle(node).backgroundColor;
          if (!/rgba\(.*,\s*0\)$/.test(background) && background !== 'transparent') {
            behind = background;
            break;
          }
        }
        return [getComputedStyle(input).borderTopColor, behind] as const;
      }),
    );
    const edges = colours.map(([edge, behind]) => contrast(edge, behind));
    t.ok(edges.length >= 2, 'the email and password fields are measured');
    for (const ratio of edges)
      t.ok(ratio >= 3, `${javaScript ? 'with' : 'without'} JavaScript: edge contrast ${ratio.toFixed(2)}:1`);

    await page.click('form.account-form button[type="submit"]');
    const email = page.locator('input[name="email"][aria-invalid="true"]');
    await email.waitFor();
    const look = await email.evaluate((input) => {
      const style = getComputedStyle(input);
      return { border: style.borderTopColor, shadow: style.boxShadow };
    });
    t.equal(look.border, 'rgb(163, 38, 27)', 'a field in error has the danger colour');
    t.match(look.shadow, /rgb\(163, 38, 27\)/, 'and a thicker edge');
    await context.close();
  }
});

/** WCAG's contrast ratio of two computed `rgb(...)` colours. */
function contrast(first: string, second: string): number {
  const luminance = (css: string) => {
    const [r = 0, g = 0, b = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
    const channel = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const [a, b] = [luminance(first), luminance(second)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
