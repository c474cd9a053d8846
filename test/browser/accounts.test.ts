import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest } from '../helpers/browser.ts';

const { base, browser } = await startBrowserTest(t);

const signedIn = (page: Page) => page.locator('[data-testid="signed-in"]');

async function journey(t: Test, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ userAgent: browserUserAgent, javaScriptEnabled });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const documents: string[] = [];
  const meRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/auth/me')) meRequests.push(request.url());
    if (request.resourceType() === 'document') documents.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  const hydrated = async () => {
    if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated="true"]');
  };
  const email = `player-${javaScriptEnabled ? 'js' : 'nojs'}@example.com`;
  const password = 'correct horse battery staple';

  await page.goto(`${base}/registration?redirect=%2Fasdas`);
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="displayName"]', 'Nok');
  await page.fill('input[name="password"]', 'short');
  await page.check('input[name="acceptTerms"]');
  await page.check('input[name="confirmAge"]');
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-field-error="password"]');
  t.equal(await page.inputValue('input[name="email"]'), email, 'typed email kept after an error');
  t.equal(await page.inputValue('input[name="password"]'), '', 'the password is not kept');

  await page.fill('input[name="password"]', password);
  if (!javaScriptEnabled) {
    // The no-JS page came back from the server: the boxes must be ticked again.
    await page.check('input[name="acceptTerms"]');
    await page.check('input[name="confirmAge"]');
  }
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/asdas`);
  await signedIn(page).waitFor();
  t.equal(await signedIn(page).textContent(), 'Signed in as Nok', 'the name in the header after registering');

  await page.reload();
  await hydrated();
  t.equal(await signedIn(page).textContent(), 'Signed in as Nok', 'still logged in after a reload');
  // Without JavaScript no code runs that could fetch (and none to wait for).
  if (javaScriptEnabled) await settled(page, 3);
  t.same(meRequests, [], 'the server-rendered user seeds SWR: nothing is fetched again after hydration');

  await page.click('[data-testid="logout"]');
  await page.waitForURL(`${base}/`);
  await page.locator('a[data-nav="login"]').waitFor();
  t.equal(await signedIn(page).count(), 0, 'logged out');
  await page.reload();
  t.equal(await page.locator('a[data-nav="login"]').count(), 1, 'still logged out after a reload');

  await page.goto(`${base}/login?redirect=%2Fbonus`);
  await hydrated();
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', 'wrong password here');
  await page.click('.account-form button[type="submit"]');
  await page.waitForSelector('[data-testid="form-message"]');
  t.match(await page.textContent('[data-testid="form-message"]'), 'The email or password is incorrect.');
  await page.fill('input[name="password"]', password);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/bonus`);
  await signedIn(page).waitFor();
  t.equal(await signedIn(page).textContent(), 'Signed in as Nok', 'logged in again, back where they were going');

  if (javaScriptEnabled) {
    t.same(
      documents,
      ['GET /registration', 'GET /asdas', 'GET /', 'GET /login'],
      'forms submit without reloading the page',
    );
    t.same(
      consoleLog.problems().filter((line) => !/status of (400|401)/.test(line)),
      [],
      'no console errors (besides the expected 400 and 401 answers)',
    );
  } else {
    t.ok(documents.includes('POST /registration') && documents.includes('POST /login'), 'plain form posts');
  }
  await context.close();
}

t.test('register, see the name, reload, log out, log in again — with JavaScript', (t) => journey(t, true));
t.test('the same without JavaScript', (t) => journey(t, false));

t.test('a logout in another tab shows when this tab is used again, not sooner than 5 s', async (t) => {
  const context = await browser.newContext({ userAgent: browserUserAgent });
  const registered = await context.request.post(`${base}/api/auth/register`, {
    data: {
      email: 'two-tabs@example.com',
      password: 'correct horse battery staple',
      displayName: 'Fah',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    },
  });
  t.equal(registered.status(), 201, 'registered (the session cookie is in this browser)');
  const first = await context.newPage();
  await first.clock.install();
  const meAnswers: (number | undefined)[] = [];
  first.on('response', (response) => {
    if (response.url().endsWith('/api/auth/me')) meAnswers.push(response.status());
  });
  await first.goto(`${base}/bonus`);
  await first.waitForSelector('html[data-hydrated="true"]');
  t.equal(await signedIn(first).textContent(), 'Signed in as Fah');

  const second = await context.newPage();
  await second.goto(`${base}/`);
  await second.waitForSelector('html[data-hydrated="true"]');
  await second.click('[data-testid="logout"]');
  await second.locator('a[data-nav="login"]').waitFor();

  // Back to the first tab within 5 s of its data: SWR counts it fresh and asks nothing.
  await first.bringToFront();
  await first.evaluate(() => window.dispatchEvent(new Event('focus')));
  await settled(first, 3);
  t.same(meAnswers, [], 'no request within the 5 s the data is fresh');
  t.equal(await signedIn(first).count(), 1, 'still shown as signed in');

  // Later, the same return asks again (the token is gone, so the answer is "nobody" without a
  // request), and the header follows.
  await second.bringToFront();
  await first.clock.fastForward(6_000);
  await first.bringToFront();
  await first.evaluate(() => window.dispatchEvent(new Event('focus')));
  await first.locator('a[data-nav="login"]').waitFor();
  t.equal(await signedIn(first).count(), 0, 'the first tab shows the visitor logged out');
  await context.close();
});
