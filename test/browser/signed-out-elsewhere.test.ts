import t from 'tap';
import type { BrowserContext, Page } from 'playwright-core';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest } from '../helpers/browser.ts';

// A page for signed-in visitors never keeps showing someone who has been signed out elsewhere
// (another tab, an ended session): once its data, or the current user, is asked again and the
// server says "nobody", it goes where the server sends nobody (login, coming back), replacing
// itself in the history, and the login page says why, in the visitor's language.

const { base, browser } = await startBrowserTest(t);
const password = 'correct horse battery staple';

const words = {
  en: 'You were signed out. Log in again to continue.',
  th: 'คุณถูกออกจากระบบแล้ว เข้าสู่ระบบอีกครั้งเพื่อดำเนินการต่อ',
};

/** A browser signed in as a new player (the session cookie is shared by its tabs). */
async function signedInBrowser(email: string, locale: 'en' | 'th'): Promise<BrowserContext> {
  const context = await browser.newContext({ userAgent: browserUserAgent });
  const registered = await context.request.post(`${base}/api/auth/register`, {
    data: { email, password, displayName: 'Fah', locale, acceptTerms: true, confirmAge: true },
  });
  if (registered.status() !== 201) throw new Error(`register: ${registered.status()}`);
  return context;
}

/** Logs out in a second tab, as the visitor would. */
async function logOutInAnotherTab(context: BrowserContext) {
  const other = await context.newPage();
  await other.goto(`${base}/`);
  await other.waitForSelector('html[data-hydrated="true"]');
  await other.click('[data-testid="logout"]');
  await other.locator('a[data-nav="login"]').waitFor();
  await other.close();
}

/** Back to the first tab after the 5 s its data is fresh: SWR asks again on focus. */
async function returnTo(page: Page) {
  await page.clock.fastForward(6_000);
  await page.bringToFront();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
}

async function open(context: BrowserContext, path: string) {
  const page = await context.newPage();
  await page.clock.install();
  const consoleLog = collectConsole(page);
  await page.goto(`${base}${path}`);
  await page.waitForSelector('html[data-hydrated="true"]');
  return { page, consoleLog };
}

const notice = (page: Page) => page.locator('[data-testid="flash-notice"] .notice-text');

t.test('the account page, signed out in another tab: login with a notice, nothing personal left', async (t) => {
  const context = await signedInBrowser('elsewhere-account@example.com', 'en');
  const { page, consoleLog } = await open(context, '/account');
  await page.locator('[data-testid="login-sessions"]').waitFor();
  const entries = await page.evaluate(() => history.length);

  await logOutInAnotherTab(context);
  await returnTo(page);
  await page.waitForURL(`${base}/login?redirect=%2Faccount`);
  await notice(page).waitFor();
  t.equal(await notice(page).textContent(), words.en, 'the login page says why');
  t.equal(await page.getAttribute('[data-testid="flash-notice"]', 'role'), 'status', 'read out politely');
  for (const personal of ['.account-page', '[data-testid="login-sessions"]', '[data-testid="account-summary"]']) {
    t.equal(await page.locator(personal).count(), 0, `${personal} is gone`);
  }
  t.notOk((await page.innerText('body')).includes('Fah'), 'the name is nowhere on the page');
  t.equal(await page.locator('header a[data-nav="login"]').count(), 1, 'the header offers Log in');
  t.equal(await page.evaluate(() => history.length), entries, 'the account page was replaced, not stacked');

  // Logging in again comes back to the account page.
  await page.fill('input[name="email"]', 'elsewhere-account@example.com');
  await page.fill('input[name="password"]', password);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/account`);
  await page.locator('[data-testid="login-sessions"]').waitFor();
  t.pass('logged in again: back on the account page');
  const unexpected = consoleLog.problems().filter((problem) => !/status of 401/.test(problem));
  t.same(unexpected, [], 'no errors besides the refused session');
  await context.close();
});

t.test('Play in Thai, signed out meanwhile: the Thai login page and a Thai notice', async (t) => {
  const context = await signedInBrowser('elsewhere-play@example.com', 'th');
  const { page } = await open(context, '/th/play');
  await page.locator('main h1').waitFor();
  await logOutInAnotherTab(context);
  await returnTo(page);
  await page.waitForURL(`${base}/th/login?redirect=%2Fth%2Fplay`);
  await notice(page).waitFor();
  t.equal(await notice(page).textContent(), words.th);
  await context.close();
});

t.test('a page for everyone stays as it is; only the header changes', async (t) => {
  const context = await signedInBrowser('elsewhere-bonus@example.com', 'en');
  const { page } = await open(context, '/bonus');
  await logOutInAnotherTab(context);
  await returnTo(page);
  await page.locator('header a[data-nav="login"]').waitFor();
  await settled(page, 3);
  t.equal(new URL(page.url()).pathname, '/bonus', 'still on the page');
  t.equal(await notice(page).count(), 0, 'no notice');
  await context.close();
});

t.test('a link to the account page followed within the 5 s: the server says login, and why', async (t) => {
  const context = await signedInBrowser('elsewhere-link@example.com', 'en');
  const { page } = await open(context, '/bonus');
  await logOutInAnotherTab(context);
  await page.bringToFront();
  // The tab still shows the player signed in; its Account link asks the server, which knows better.
  await page.click('header a[data-nav="account"]');
  await page.waitForURL(`${base}/login?redirect=%2Faccount`);
  await notice(page).waitFor();
  t.equal(await notice(page).textContent(), words.en);
  await page.locator('header a[data-nav="login"]').waitFor();
  t.pass('and the header follows');
  await context.close();
});
