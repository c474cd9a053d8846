import { join } from 'node:path';
import t, { type Test } from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, startBrowserTest } from '../helpers/browser.ts';
import { messagesTo } from '../helpers/outbox.ts';

// Forgot password -> the link from the outbox -> a new password -> logged in -> the old password
// is refused; with JavaScript (through the API) and without (form posts), in English, and in Thai
// with JavaScript (the client translates the API's answers; the pages' tests cover Thai without it).
const { app, base, browser } = await startBrowserTest(t, { PUBLIC_URL: 'http://public.asdas.example' });
const outbox = join(app.config.dataDir, 'outbox');

const words = {
  en: {
    subject: 'Choose a new password for Asdas',
    tooShort: 'This is too short.',
    signedIn: 'Signed in as Forgetful',
    used: 'This link has already been used',
    refused: 'The email or password is incorrect.',
  },
  th: {
    subject: 'ตั้งรหัสผ่านใหม่สำหรับ Asdas',
    tooShort: 'ข้อมูลสั้นเกินไป',
    signedIn: 'เข้าสู่ระบบในชื่อ Forgetful',
    used: 'ลิงก์นี้ถูกใช้ไปแล้ว',
    refused: 'อีเมลหรือรหัสผ่านไม่ถูกต้อง',
  },
};

async function journey(t: Test, javaScriptEnabled: boolean, locale: 'en' | 'th' = 'en') {
  const email = `forgetful-${javaScriptEnabled ? 'js' : 'nojs'}-${locale}@example.com`;
  const say = words[locale];
  // English at unprefixed paths, Thai under /th ('/' itself is '/th').
  const at = (path: string) => `${base}${locale === 'th' ? (path === '/' ? '/th' : `/th${path}`) : path}`;
  const oldPassword = 'the old passphrase 1';
  const newPassword = 'the new passphrase 2';
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: oldPassword, displayName: 'Forgetful', locale, acceptTerms: true, confirmAge: true },
  });
  t.equal(registered.statusCode, 201);

  const context = await browser.newContext({ userAgent: browserUserAgent, javaScriptEnabled });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const hydrated = async () => {
    if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated="true"]');
  };

  await page.goto(at('/login'));
  await hydrated();
  await page.click('[data-testid="forgot-password"]');
  await page.waitForURL(at('/forgot-password'));
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(at('/forgot-password?sent=1'));
  await page.locator('[data-testid="reset-sent"]').waitFor();

  await app.jobs.settled();
  const message = (await messagesTo(outbox, email)).find((candidate) => candidate.subject === say.subject);
  t.ok(message, 'the email is in the outbox');
  const link = new URL(message!.links[0]!);
  t.equal(link.origin, 'http://public.asdas.example', 'the link is built from PUBLIC_URL');
  t.equal(link.pathname, locale === 'th' ? '/th/reset-password' : '/reset-password', 'in the language of the account');
  // The browser reaches this test server, not the public name: same path and query.
  await page.goto(`${base}${link.pathname}${link.search}`);
  await hydrated();
  await page.fill('input[name="password"]', 'short');
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-field-error="password"]');
  t.equal(await page.textContent('[data-field-error="password"]'), say.tooShort, 'the registration rules apply');
  await page.fill('input[name="password"]', newPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(at('/account?done=password-reset'));
  await page.locator('[data-testid="account-done"]').waitFor();
  t.equal(await page.textContent('[data-testid="signed-in"]'), say.signedIn, 'logged in');

  await page.goto(`${base}${link.pathname}${link.search}`);
  await hydrated();
  t.equal(await page.getAttribute('[data-testid="link-problem"]', 'data-problem'), 'used', 'the link works once');
  t.equal(await page.textContent('h1'), say.used);

  await page.click('[data-testid="logout"]');
  await page.waitForURL(at('/'));
  await page.goto(at('/login'));
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', oldPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-testid="form-message"]');
  t.equal(await page.textContent('[data-testid="form-message"]'), say.refused, 'the old password is refused');
  await page.fill('input[name="password"]', newPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(at('/'));
  t.equal(await page.textContent('[data-testid="signed-in"]'), say.signedIn, 'the new one logs in');

  if (javaScriptEnabled) {
    t.same(
      consoleLog.problems().filter((line) => !/status of (400|401)/.test(line)),
      [],
      'no console errors (besides the expected 400 and 401 answers)',
    );
  }
  await context.close();
}

t.test('forgotten password, with JavaScript', (t) => journey(t, true));
t.test('forgotten password, without JavaScript', (t) => journey(t, false));
t.test('forgotten password, with JavaScript, in Thai', (t) => journey(t, true, 'th'));
