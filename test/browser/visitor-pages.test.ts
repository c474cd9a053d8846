import type { Locator, Page } from 'playwright-core';
import t from 'tap';
import { startBrowserTest, visitors } from '../helpers/browser.ts';

// What visitors notice on the pages (issue 40), measured in Chromium on the production build:
// grids whose rows are full, the account page's columns and length on a phone.

const { app, base, browser } = await startBrowserTest(t);

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email: `visitor.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Visitor Player',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  },
});
const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
const { newContext, visit } = visitors(browser, base, token);

const laptop = { width: 1366, height: 900 };
const tablet = { width: 768, height: 1024 };
const phone = { width: 390, height: 844 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

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

/** How many boxes each row holds, top to bottom (a row: the same top, within two pixels). */
function rowLengths(found: Box[]): number[] {
  const rows: number[][] = [];
  for (const box of found) {
    const row = rows.find((tops) => Math.abs(tops[0]! - box.y) <= 2);
    if (row) row.push(box.y);
    else rows.push([box.y]);
  }
  return rows.sort((a, b) => a[0]! - b[0]!).map((row) => row.length);
}

t.test('article grids fill row by row on a laptop and a tablet, in both languages', async (t) => {
  for (const viewport of [laptop, tablet]) {
    const context = await newContext(viewport);
    const page = await context.newPage();
    for (const path of ['/asdas', '/th/asdas', '/', '/th']) {
      await visit(page, path);
      const rows = rowLengths(await boxes(page.locator('[data-testid="article-card"]'), 'an article card'));
      const where = `${path} at ${viewport.width}`;
      t.ok(rows[0]! > 1, `${where}: more than one column (${rows.join('+')})`);
      t.ok(
        rows.every((length) => length === rows[0]),
        `${where}: every row full (${rows.join('+')})`,
      );
    }
    await context.close();
  }
});

t.test('the account page: its details forms closed rows whose fields line up, short on a phone', async (t) => {
  const left = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((elements) =>
      elements.map((element) => {
        const { x, width } = element.getBoundingClientRect();
        return [Math.round(x), Math.round(width)];
      }),
    );
  for (const [path, javaScript] of [
    ['/account', true],
    ['/th/account', false],
  ] as const) {
    const context = await newContext(laptop, { user: true, javaScript });
    const page = await context.newPage();
    await visit(page, path, javaScript);
    const disclosures = page.locator('#account-details details.account-disclosure');
    t.equal(await disclosures.count(), 3, `${path}: name and language, email, password`);
    t.same(
      await disclosures.evaluateAll((elements) => elements.map((element) => (element as HTMLDetailsElement).open)),
      [false, false, false],
      `${path}: closed until asked for`,
    );
    t.equal(await page.locator('[data-testid="delete-disclosure"][open]').count(), 0, `${path}: deletion closed`);
    t.same(
      new Set((await left(page, '#account-details summary h3')).map(([x]) => x)).size,
      1,
      `${path}: the rows' titles in one column`,
    );
    for (const name of ['email', 'password', 'profile'])
      await page.click(`[data-testid="${name}-disclosure"] > summary`);
    t.ok(
      await page.isVisible('input[name="newEmail"]'),
      `${path}: a row opens by a click${javaScript ? '' : ', without JavaScript'}`,
    );
    const fields = await left(page, '#account-details input:not([type="radio"]):not([type="hidden"])');
    t.equal(fields.length, 5, `${path}: the five text fields`);
    t.same(
      fields.filter(([x, width]) => x !== fields[0]![0] || width !== fields[0]![1]),
      [],
      `${path}: every field starts at the same x with the same width (${fields[0]!.join(', ')})`,
    );
    const buttons = await left(page, '#account-details button[type="submit"]');
    t.same(new Set(buttons.map(([x]) => x)).size, 1, `${path}: the forms' buttons line up too`);
    await context.close();
  }
  for (const path of ['/account', '/th/account']) {
    const context = await newContext(phone, { user: true });
    const page = await context.newPage();
    await visit(page, path);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    t.ok(height <= 2500, `${path} at 390: ${height} px tall (at most 2500; 3,463 with every form open)`);
    await context.close();
  }
});

t.test('client navigations ask for no icon: it is in the page (Chromium asks per address)', async (t) => {
  const context = await newContext(laptop);
  const page = await context.newPage();
  const icons: string[] = [];
  const documents: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/favicon|apple-touch-icon|\.ico$/.test(url.pathname)) icons.push(url.pathname);
    if (request.resourceType() === 'document') documents.push(url.pathname);
  });
  await visit(page, '/');
  const route = ['/asdas', '/bonus', '/terms-apply', '/', '/table-of-content', '/author', '/play-responsibility'];
  for (const path of route) {
    const before = await page.locator('h1').textContent();
    await page.locator(`header a[href="${path}"], main a[href="${path}"]`).first().click();
    await page.waitForURL(`${base}${path}`);
    await page.waitForFunction((previous) => document.querySelector('h1')?.textContent !== previous, before);
  }
  t.same(documents, ['/'], `${route.length} client navigations after the first page`);
  t.same(icons, [], 'no icon request, on the first page or after');
  t.match(await page.locator('link[rel="icon"]').getAttribute('href'), /^data:image\/svg\+xml,/, 'the icon is inline');
  await context.close();
});

t.test('Thai tables at 320 px: words whole, the page no wider than the screen', async (t) => {
  // Words Chromium's dictionary splits (compounds, loanwords, a misreading) when a column is squeezed.
  const words = ['รูเล็ต', 'เครื่องมือ', 'หรือ', 'ระยะเวลา', 'ยกเลิก'];
  const context = await newContext({ width: 320, height: 568 });
  const page = await context.newPage();
  const list = (await app.inject({ url: '/th/asdas/_payload.json' })).json<{
    data: { articles: { path: string }[] };
  }>().data;
  let tables = 0;
  const found = new Set<string>();
  for (const path of ['/th/play-responsibility', '/th/bonus', ...list.articles.map((article) => article.path)]) {
    await visit(page, path);
    const count = await page.locator('.prose table').count();
    if (count === 0) continue;
    tables += count;
    t.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${path}: no sideways scrolling`,
    );
    const split = await page.locator('.prose :is(td, th)').evaluateAll((cells, list) => {
      const broken: string[] = [];
      const seen: string[] = [];
      const first = document.createRange();
      const last = document.createRange();
      for (const cell of cells) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
          for (const word of list) {
            for (let at = node.data.indexOf(word); at !== -1; at = node.data.indexOf(word, at + 1)) {
              seen.push(word);
              // No function of our own in here: the test runner's transform would name it (__name).
              first.setStart(node, at);
              first.setEnd(node, at + 1);
              last.setStart(node, at + word.length - 1);
              last.setEnd(node, at + word.length);
              const lines = Math.abs(first.getClientRects()[0]!.top - last.getClientRects()[0]!.top);
              if (lines > 4) broken.push(`${word} in "${node.data}"`);
            }
          }
        }
      }
      return { broken, seen };
    }, words);
    for (const word of split.seen) found.add(word);
    t.same(split.broken, [], `${path}: no word split across lines in a table`);
  }
  t.ok(tables >= 5, `Thai tables checked (${tables})`);
  t.ok(found.size >= 4, `the words were there to split (${[...found].join(', ')})`);
  await context.close();
});
