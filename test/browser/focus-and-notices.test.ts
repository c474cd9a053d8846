import type { Page } from 'playwright-core';
import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, startBrowserTest } from '../helpers/browser.ts';

// What keyboard and screen-reader users get, in Chromium on the production build: after a client
// navigation focus is on the new page's h1 and the live region says the new title; a form sent
// with errors shows a summary that takes focus and whose links move focus into each field; the
// "You are signed in" notice appears once after login or registration, with and without JavaScript.

const { app, base, browser } = await startBrowserTest(t);
const password = 'correct horse battery staple';

async function registerThroughApi(email: string, displayName: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.8.0.${Math.floor(Math.random() * 200) + 1}`,
    payload: { email, password, displayName, locale: 'en', acceptTerms: true, confirmAge: true },
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
}

async function open(path: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ userAgent: browserUserAgent, javaScriptEnabled });
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  await page.goto(`${base}${path}`);
  if (javaScriptEnabled) await page.waitForSelector('html[data-hydrated="true"]');
  return { context, page, consoleLog };
}

/** What has focus, as a screen reader would start reading: its tag, its text, and whether it is the page's main heading. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      text: element?.textContent?.trim() ?? '',
      isMainHeading: element?.matches('#main h1') ?? false,
      id: element?.id ?? '',
    };
  });
const announced = (page: Page) => page.locator('[data-testid="route-announcer"]').textContent();

/** Waits for the navigation's end as the visitor perceives it: the new title, announced. */
async function arrived(page: Page, title: string) {
  await page.waitForFunction(
    (expected) =>
      document.title === expected &&
      document.querySelector('[data-testid="route-announcer"]')?.textContent === expected,
    title,
  );
}

t.test('after each client navigation focus is on the new h1 and the new title is announced', async (t) => {
  const { context, page, consoleLog } = await open('/bonus');
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  t.equal(await announced(page), '', 'nothing announced on the first load (the browser reads the new document)');
  t.equal((await focused(page)).tag, 'body', 'and focus is left to the browser');

  // Each step changes the title, so "arrived" cannot be satisfied by the page before.
  const steps: [click: string, path: string, title: string, heading: string][] = [
    ['[data-nav="terms_apply"]', '/terms-apply', 'Terms apply · Asdas', 'Terms apply'],
    ['[data-nav="home"]', '/', 'Welcome · Asdas', 'Welcome'],
    [
      '.article-card .card-title a >> nth=1',
      '/asdas/how-to-read-bonus-terms',
      'How to read bonus terms · Asdas',
      'How to read bonus terms',
    ],
    [
      '[data-testid="language-switch"]',
      '/th/asdas/how-to-read-bonus-terms',
      'วิธีอ่านเงื่อนไขโบนัส · Asdas',
      'วิธีอ่านเงื่อนไขโบนัส',
    ],
    ['[data-nav="bonus"]', '/th/bonus', 'โบนัสทำงานอย่างไร · Asdas', 'โบนัสทำงานอย่างไร'],
  ];
  for (const [click, path, title, heading] of steps) {
    await page.click(click);
    await page.waitForURL(`${base}${path}`);
    await arrived(page, title);
    const now = await focused(page);
    t.ok(now.isMainHeading, `${path}: focus on the page's h1`);
    t.equal(now.text, heading, "the new page's own heading");
    t.equal(await announced(page), await page.title(), 'the live region says the new title');
  }
  t.equal(await page.getAttribute('[data-testid="route-announcer"]', 'aria-live'), 'polite');

  // Keyboard: the next Tab goes on from the heading into the page, not back to the header.
  await page.keyboard.press('Tab');
  t.ok(await page.evaluate(() => document.activeElement?.closest('#main') !== null), 'Tab continues inside the page');
  t.same(documents, [], 'all client navigations');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('the error summary takes focus, says what to fix, and its links move focus to each field', async (t) => {
  for (const javaScript of [true, false]) {
    const { context, page } = await open('/th/registration', javaScript);
    await page.fill('input[name="email"]', 'not an address');
    await page.click('.account-form button[type="submit"]');
    const summary = page.locator('[data-testid="error-summary"]');
    await summary.waitFor();
    t.equal(await summary.getAttribute('role'), 'alert', `${javaScript ? 'JS' : 'no JS'}: announced at once`);
    const links = summary.locator('a[data-summary-field]');
    const fields = await links.evaluateAll((anchors) =>
      anchors.map((anchor) => anchor.getAttribute('data-summary-field')),
    );
    t.same(
      fields,
      ['email', 'displayName', 'password', 'acceptTerms', 'confirmAge'],
      'one link per field in error, in form order',
    );
    t.match(await links.first().textContent(), /^อีเมล: /, 'each link names the field by its visible label');
    for (const [index, name] of fields.entries()) {
      t.equal(await links.nth(index).getAttribute('href'), `#field-${name}`);
      t.equal(await page.locator(`#field-${name}`).count(), 1, `the link's target ${name} exists`);
    }

    if (javaScript) {
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'error-summary');
      t.pass('focus is on the summary');
      // Keyboard: Tab to a link, Enter: focus is in that field.
      await page.keyboard.press('Tab');
      t.equal((await focused(page)).text.startsWith('อีเมล: '), true, 'Tab reaches the first link');
      await page.keyboard.press('Enter');
      t.equal((await focused(page)).id, 'field-email', 'Enter moves focus into the field');
      for (const name of fields) {
        await summary.locator(`a[data-summary-field="${name}"]`).click();
        t.equal((await focused(page)).id, `field-${name}`, `the ${name} link focuses its field`);
      }
      t.equal(new URL(page.url()).hash, '', 'no fragment in the address (the page stays the form)');
      // Sending again with errors fixed one by one: the summary is brought up to date and focused again.
      await page.fill('input[name="displayName"]', 'Nok');
      await page.locator('#field-password').focus();
      await page.click('.account-form button[type="submit"]');
      await page.waitForFunction(
        () =>
          document.querySelectorAll('[data-summary-field]').length === 4 &&
          document.activeElement?.getAttribute('data-testid') === 'error-summary',
      );
      t.pass('a second submission: four left, and focus back on the summary');
    } else {
      // Without JavaScript the links are in-page anchors: following one scrolls to the field.
      await page.locator('a[data-summary-field="confirmAge"]').click();
      t.equal(new URL(page.url()).hash, '#field-confirmAge');
      t.ok(await page.locator('#field-confirmAge').isVisible(), 'the field is in view');
    }
    await context.close();
  }
});

t.test('the sign-in notice: once, after login, with JavaScript', async (t) => {
  await registerThroughApi('notice-js@example.com', 'Notice JS');
  const { context, page, consoleLog } = await open('/login?redirect=%2Fbonus');
  await page.fill('input[name="email"]', 'notice-js@example.com');
  await page.fill('input[name="password"]', password);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/bonus`);
  const notice = page.locator('[data-testid="flash-notice"]');
  await notice.waitFor();
  t.equal(await notice.getAttribute('role'), 'status', 'read out politely');
  t.equal(await notice.locator('.notice-text').textContent(), 'You are signed in.');
  const inMain = await notice.evaluate(
    (element) => element.closest('#main') !== null && element.closest('header') === null,
  );
  t.ok(inMain, 'at the top of the page, not in the header');

  await page.click('[data-nav="terms_apply"]');
  await arrived(page, 'Terms apply · Asdas');
  t.equal(await notice.count(), 0, 'gone on the next page');
  await page.goBack();
  await arrived(page, 'How bonuses work · Asdas');
  t.equal(await notice.count(), 0, 'and not back with Back');
  await page.reload();
  await page.waitForSelector('html[data-hydrated="true"]');
  t.equal(await notice.count(), 0, 'nor after a reload');
  t.same(consoleLog.problems(), []);
  await context.close();
});

t.test('the registration notice with JavaScript, dismissed by its button', async (t) => {
  const { context, page } = await open('/th/registration?redirect=%2Fth%2Fasdas');
  await page.fill('input[name="email"]', 'notice-reg@example.com');
  await page.fill('input[name="displayName"]', 'ลงทะเบียน');
  await page.fill('input[name="password"]', password);
  await page.check('input[name="acceptTerms"]');
  await page.check('input[name="confirmAge"]');
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/th/asdas`);
  const notice = page.locator('[data-testid="flash-notice"]');
  await notice.waitFor();
  t.match(await notice.textContent(), /ยินดีต้อนรับ/, 'a Thai welcome');
  const dismiss = notice.getByRole('link', { name: 'ปิดข้อความนี้' });
  await dismiss.click();
  await notice.waitFor({ state: 'detached' });
  t.equal(page.url(), `${base}/th/asdas`, 'dismissing stays on the page');
  await context.close();
});

t.test('the sign-in notice without JavaScript: once, from the server, dismissed by a link', async (t) => {
  await registerThroughApi('notice-nojs@example.com', 'Notice NoJS');
  const { context, page } = await open('/login?redirect=%2Fasdas', false);
  await page.fill('input[name="email"]', 'notice-nojs@example.com');
  await page.fill('input[name="password"]', password);
  await page.click('.account-form button[type="submit"]');
  await page.waitForURL(`${base}/asdas`);
  const notice = page.locator('[data-testid="flash-notice"]');
  t.equal(await notice.locator('.notice-text').textContent(), 'You are signed in.', 'in the page the server sent');
  t.same(
    (await context.cookies()).filter((cookie) => cookie.name === 'flash'),
    [],
    'the one-shot cookie was read and cleared',
  );
  await page.click('[data-testid="notice-dismiss"]');
  await page.waitForURL(`${base}/asdas`);
  t.equal(await notice.count(), 0, 'the dismiss link loads the page again, without it');
  await page.reload();
  t.equal(await notice.count(), 0, 'and a reload does not bring it back');
  await context.close();
});
