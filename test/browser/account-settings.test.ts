import { join } from 'node:path';
import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, startBrowserTest } from '../helpers/browser.ts';
import { messagesTo } from '../helpers/outbox.ts';

// The account page with JavaScript (every form through the API): change the email with the link
// sent to the new address, end another device's session, then delete the account.
const { app, base, browser } = await startBrowserTest(t, { PUBLIC_URL: 'http://public.asdas.example' });
const outbox = join(app.config.dataDir, 'outbox');

t.test('change email with confirmation, end another session, delete the account', async (t) => {
  const email = 'keeper@example.com';
  const password = 'keep this passphrase 1';
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password, displayName: 'Keeper', locale: 'en', acceptTerms: true, confirmAge: true },
  });
  t.equal(registered.statusCode, 201);
  const phone = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: {
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    },
  });
  const phoneToken = phone.cookies.find((cookie) => cookie.name === 'token')!.value;

  const context = await browser.newContext({ userAgent: browserUserAgent });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const hydrated = () => page.waitForSelector('html[data-hydrated="true"]');
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });

  await page.goto(`${base}/login?redirect=%2Faccount`);
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', password);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/account`);
  await page.locator('[data-testid="email-status"]').waitFor();

  // A wrong password: the error summary names the field, nothing changes.
  const emailForm = page.locator('[data-testid="email-form"]');
  // The details forms are closed rows until opened (native <details>).
  await page.click('[data-testid="email-disclosure"] > summary');
  await emailForm.locator('input[name="newEmail"]').fill('keeper.new@example.com');
  await emailForm.locator('input[name="currentPassword"]').fill('not my password');
  await emailForm.locator('button[type="submit"]').click();
  await emailForm.locator('[data-field-error="currentPassword"]').waitFor();
  t.equal(await emailForm.locator('[data-field-error="currentPassword"]').textContent(), 'This password is not right.');
  t.equal(
    await emailForm.locator('input[name="newEmail"]').inputValue(),
    'keeper.new@example.com',
    'the typed address is kept',
  );

  await emailForm.locator('input[name="currentPassword"]').fill(password);
  await emailForm.locator('button[type="submit"]').click();
  await page.waitForURL(`${base}/account?done=email-change-sent`);
  await page.locator('[data-testid="pending-email"]').waitFor();
  t.equal(
    await page.textContent('[data-testid="account-email"]'),
    email,
    'the old address stays until the link is used',
  );

  await app.jobs.settled();
  const message = (await messagesTo(outbox, 'keeper.new@example.com')).at(-1)!;
  const link = new URL(message.links[0]!);
  t.equal(link.origin, 'http://public.asdas.example');
  await page.goto(`${base}${link.pathname}${link.search}`);
  await hydrated();
  await page.click('[data-testid="confirm-email-form"] button[type="submit"]');
  await page.waitForURL(`${base}/confirm-email?done=1`);
  await page.locator('[data-testid="email-changed"]').waitFor();
  await page.click('a[href="/account"].button');
  await page.waitForURL(`${base}/account`);
  await page.locator('[data-testid="email-status"][data-verified="true"]').waitFor();
  t.equal(
    await page.textContent('[data-testid="account-email"]'),
    'keeper.new@example.com',
    'the new address, verified',
  );
  t.equal(await page.locator('[data-testid="pending-email"]').count(), 0);
  await app.jobs.settled();
  t.ok(
    (await messagesTo(outbox, email)).some(
      (told) => told.subject === 'The email address of your Asdas account was changed',
    ),
    'the old address was told',
  );

  // Sessions (registration's, the phone's, this browser's): this one is marked; the phone is
  // ended from here, then every other one.
  t.equal(await page.locator('[data-testid="login-session"]').count(), 3);
  t.match(
    await page.locator('[data-testid="login-session"][data-current="true"]').textContent(),
    /Chrome on Linux.*This device/,
  );
  await page
    .locator('[data-testid="login-session"]', { hasText: 'Safari on iOS' })
    .locator('[data-testid="end-session"]')
    .click();
  await page.waitForURL(`${base}/account?done=session-ended`);
  await page.locator('[data-testid="account-done"]').waitFor();
  t.equal(await page.locator('[data-testid="login-session"]').count(), 2);
  t.equal(
    (await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${phoneToken}` } })).statusCode,
    401,
    'the phone is logged out',
  );
  await page.click('[data-testid="end-other-sessions"]');
  await page.waitForURL(`${base}/account?done=other-sessions-ended`);
  await page.locator('[data-testid="account-done"]').waitFor();
  t.equal(await page.locator('[data-testid="login-session"]').count(), 1, 'only this browser is left');

  // Deletion: the password, then the home page, logged out, with a notice.
  const deleteForm = page.locator('[data-testid="delete-account-form"]');
  await page.click('[data-testid="delete-disclosure"] > summary');
  await deleteForm.locator('input[name="password"]').fill(password);
  await deleteForm.locator('button[type="submit"]').click();
  await page.waitForURL(`${base}/`);
  await page.locator('[data-testid="flash-notice"]').waitFor();
  t.equal(await page.textContent('[data-testid="flash-notice"] .notice-text'), 'Your account has been deleted.');
  await page.locator('a[data-nav="login"]').first().waitFor();
  t.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'keeper.new@example.com', password },
      })
    ).statusCode,
    401,
  );

  t.same(
    documents.filter((line) => line.startsWith('POST')),
    [],
    'every form went through the API, no page posts',
  );
  t.same(
    consoleLog.problems().filter((line) => !/status of 400/.test(line)),
    [],
    'no console errors (besides the expected 400)',
  );
  await context.close();
});
