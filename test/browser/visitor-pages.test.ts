import type { Locator } from 'playwright-core';
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
