import { join } from 'node:path';
import t, { type Test } from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest } from '../helpers/browser.ts';
import { messagesTo } from '../helpers/outbox.ts';

// Forgot password -> the link from the outbox -> a new password -> logged in -> the old password
// is refused; with JavaScript (through the API) and without (form posts).
const { app, base, browser } = await startBrowserTest(t, { PUBLIC_URL: 'http://public.asdas.example' });
const outbox = join(app.config.dataDir, 'outbox');

async function journey(t: Test, javaScriptEnabled: boolean) {
  const email = `forgetful-${javaScriptEnabled ? 'js' : 'nojs'}@example.com`;
  const oldPassword = 'the old passphrase 1';
  const newPassword = 'the new passphrase 2';
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password: oldPassword, displayName: 'Forgetful', locale: 'en', acceptTerms: true, confirmAge: true },
  });
  t.equal(registered.statusCode, 201);

  const context = await browser.newContext({ userAgent: browserUserAgent, javaScriptEnabled });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const hydrated = async () => {
    if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated="true"]');
  };

  await page.goto(`${base}/login`);
  await hydrated();
  await page.click('[data-testid="forgot-password"]');
  await page.waitForURL(`${base}/forgot-password`);
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/forgot-password?sent=1`);
  await page.locator('[data-testid="reset-sent"]').waitFor();

  await app.jobs.settled();
  const message = (await messagesTo(outbox, email)).find((candidate) => candidate.subject === 'Choose a new password for Asdas');
  t.ok(message, 'the email is in the outbox');
  const link = new URL(message!.links[0]!);
  t.equal(link.origin, 'http://public.asdas.example', 'the link is built from PUBLIC_URL');
  // The browser reaches this test server, not the public name: same path and query.
  await page.goto(`${base}${link.pathname}${link.search}`);
  await hydrated();
  await page.fill('input[name="password"]', 'short');
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-field-error="password"]');
  t.equal(await page.textContent('[data-field-error="password"]'), 'This is too short.', 'the registration rules apply');
  await page.fill('input[name="password"]', newPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/account?done=password-reset`);
  await page.locator('[data-testid="account-done"]').waitFor();
  t.equal(await page.textContent('[data-testid="signed-in"]'), 'Signed in as Forgetful', 'logged in');

  await page.goto(`${base}${link.pathname}${link.search}`);
  await hydrated();
  t.equal(await page.getAttribute('[data-testid="link-problem"]', 'data-problem'), 'used', 'the link works once');
  t.equal(await page.textContent('h1'), 'This link has already been used');

  await page.click('[data-testid="logout"]');
  await page.waitForURL(`${base}/`);
  await page.goto(`${base}/login`);
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', oldPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-testid="form-message"]');
  t.equal(await page.textContent('[data-testid="form-message"]'), 'The email or password is incorrect.', 'the old password is refused');
  await page.fill('input[name="password"]', newPassword);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/`);
  t.equal(await page.textContent('[data-testid="signed-in"]'), 'Signed in as Forgetful', 'the new one logs in');

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
