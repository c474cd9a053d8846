import t from 'tap';
import type { Page } from 'playwright-core';
import { collectConsole, startBrowserTest, visitors } from '../helpers/browser.ts';

// The header as a visitor meets it: Tab walks its controls in the order they are seen (rows top to
// bottom, each left to right) at desktop and phone widths, and its Log in and Register links bring
// the visitor back to the page they were reading, in both languages, with and without JavaScript.

const { app, base, browser } = await startBrowserTest(t);
const { newContext, visit } = visitors(browser, base, '');
const password = 'correct horse battery staple';

async function register(email: string, locale: 'en' | 'th') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.9.0.${Math.floor(Math.random() * 200) + 1}`,
    payload: { email, password, displayName: 'Header', locale, acceptTerms: true, confirmAge: true },
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
}

interface Control {
  name: string;
  top: number;
  bottom: number;
  left: number;
}

/** The header's controls in the order Tab reaches them, from the skip link on. */
async function tabOrder(page: Page): Promise<Control[]> {
  await page.locator('.skip-link').focus();
  const order: Control[] = [];
  for (let step = 0; step < 40; step += 1) {
    await page.keyboard.press('Tab');
    const control = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element?.closest('header.site-header')) return null;
      const box = element.getBoundingClientRect();
      const name = element.dataset.nav ?? element.dataset.testid ?? element.className;
      return { name, top: box.top, bottom: box.bottom, left: box.left };
    });
    if (!control) return order;
    order.push(control);
  }
  throw new Error('Tab never left the header');
}

/** The same controls in reading order: rows (boxes that share a line) top to bottom, each left to right. */
function visualOrder(controls: Control[]): string[] {
  const rows: Control[][] = [];
  for (const control of [...controls].sort((a, b) => a.top - b.top)) {
    const middle = (control.top + control.bottom) / 2;
    const row = rows.find((candidate) => middle > candidate[0]!.top && middle < candidate[0]!.bottom);
    if (row) row.push(control);
    else rows.push([control]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.left - b.left).map((control) => control.name));
}

/** Every control in the header a visitor can see and reach: what Tab must visit. */
const visibleControls = (page: Page) =>
  page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('header.site-header a, header.site-header button, summary')].filter(
        (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden',
      ).length,
  );

for (const width of [1366, 390]) {
  for (const locale of ['en', 'th'] as const) {
    t.test(`${width} px, ${locale}: Tab follows the header as it is seen`, async (t) => {
      const context = await newContext({ width, height: width > 500 ? 900 : 844 });
      const page = await context.newPage();
      await visit(page, locale === 'en' ? '/bonus' : '/th/bonus');
      const toggle = page.locator('[data-testid="menu-toggle"]');
      for (const menu of width > 500 ? ['wide'] : ['closed', 'open']) {
        if (menu === 'open') await toggle.click();
        const order = await tabOrder(page);
        const names = order.map((control) => control.name);
        t.same(names, visualOrder(order), `${menu}: Tab order is the visual order (${names.join(', ')})`);
        t.equal(order.length, await visibleControls(page), `${menu}: Tab reaches every control shown`);
        if (menu !== 'closed') {
          t.ok(names.includes('login') && names.includes('registration'), `${menu}: Log in and Register included`);
          t.ok(names.indexOf('login') < names.indexOf('registration'), `${menu}: Log in before Register`);
        }
      }
      await context.close();
    });
  }
}

const loginHref = (page: Page) => page.locator('header a[data-nav="login"]').getAttribute('href');
const registrationHref = (page: Page) => page.locator('header a[data-nav="registration"]').getAttribute('href');

t.test('the header links to login and registration come back to the page shown', async (t) => {
  for (const javaScript of [true, false]) {
    const context = await newContext({ width: 1366, height: 900 }, { javaScript });
    const page = await context.newPage();
    const mode = javaScript ? 'with JavaScript' : 'without';
    await visit(page, '/asdas/rtp-explained', javaScript);
    t.equal(await loginHref(page), '/login?redirect=%2Fasdas%2Frtp-explained', `${mode}: the server's Log in link`);
    t.equal(await registrationHref(page), '/registration?redirect=%2Fasdas%2Frtp-explained', `${mode}: Register`);
    await visit(page, '/th/asdas/rtp-explained', javaScript);
    t.equal(await loginHref(page), '/th/login?redirect=%2Fth%2Fasdas%2Frtp-explained', `${mode}: in Thai`);
    await visit(page, '/asdas?page=2', javaScript);
    t.equal(await loginHref(page), '/login?redirect=%2Fasdas%3Fpage%3D2', `${mode}: with the query the page reads`);
    // The login and registration pages themselves keep where the visitor was going, and never point at themselves.
    await visit(page, '/registration?redirect=%2Fbonus', javaScript);
    t.equal(await loginHref(page), '/login?redirect=%2Fbonus', `${mode}: on registration, the way back is kept`);
    await visit(page, '/login', javaScript);
    t.equal(await loginHref(page), '/login', `${mode}: on login, no redirect to login`);
    t.equal(await registrationHref(page), '/registration', `${mode}: nor to registration`);
    // The other account forms have flows of their own: logging in does not return to them.
    await visit(page, '/th', javaScript);
    t.equal(await loginHref(page), '/th/login', `${mode}: none from home, where login goes anyway`);
    await visit(page, '/th/forgot-password', javaScript);
    t.equal(await loginHref(page), '/th/login', `${mode}: none from the forgotten-password form`);
    await context.close();
  }
});

t.test('after client navigation the links follow the page', async (t) => {
  const context = await newContext({ width: 1366, height: 900 });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  await visit(page, '/asdas');
  await page.click('.article-card .card-title a >> nth=0');
  await page.waitForURL(/\/asdas\/[a-z0-9-]+$/);
  const path = new URL(page.url()).pathname;
  await page.waitForFunction(
    (expected) => document.querySelector('header a[data-nav="login"]')?.getAttribute('href') === expected,
    `/login?redirect=${encodeURIComponent(path)}`,
  );
  t.pass(`Log in comes back to ${path}`);
  await page.click('[data-testid="language-switch"]');
  await page.waitForURL(`${base}/th${path}`);
  await page.waitForFunction(
    (expected) => document.querySelector('header a[data-nav="login"]')?.getAttribute('href') === expected,
    `/th/login?redirect=${encodeURIComponent(`/th${path}`)}`,
  );
  t.pass('and in Thai after switching language');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('from an article, Log in in the header, log in: back on the article', async (t) => {
  for (const [locale, javaScript] of [
    ['en', true],
    ['th', true],
    ['en', false],
  ] as const) {
    const email = `header-${locale}-${javaScript}@example.com`;
    await register(email, locale);
    const context = await newContext({ width: 390, height: 844 }, { javaScript });
    const page = await context.newPage();
    const article = `${locale === 'en' ? '' : '/th'}/asdas/how-to-read-bonus-terms`;
    await visit(page, article, javaScript);
    const toggle = page.locator('[data-testid="menu-toggle"]');
    await toggle.click();
    await page.click('header a[data-nav="login"]');
    await page.waitForURL(/\/login\?redirect=/);
    if (javaScript) await page.waitForSelector('.account-form');
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', password);
    await page.click('.account-form button[type="submit"]');
    await page.waitForURL(`${base}${article}`);
    await page.locator('[data-testid="signed-in"]').waitFor({ state: 'attached' });
    t.pass(`${locale}, ${javaScript ? 'with' : 'without'} JavaScript: signed in, back on ${article}`);
    await context.close();
  }
});
