import type { BrowserContext, Page } from 'playwright-core';
import t from 'tap';
import { formatDateTime } from '../../client/components/local-time.tsx';
import { browserUserAgent } from '../helpers/app.ts';
import { collectConsole, settled, startBrowserTest } from '../helpers/browser.ts';

// Play end to end in Chromium, on the production build with its own SQLite: log in, press Play,
// land on the own /play page with a verified session; breaks refuse Play with their end date;
// a launch URL to an origin that is not allowed goes nowhere; the account page takes a break
// with and without JavaScript.

const { app, base, browser } = await startBrowserTest(t);

const timezoneId = 'Asia/Bangkok';
const password = 'correct horse battery staple';
let registered = 0;

/** A player registered through the API (each from its own address: registration is rate-limited per address). */
async function registerPlayer(displayName: string, locale: 'en' | 'th' = 'en') {
  registered += 1;
  const email = `player${registered}.${process.pid}@example.com`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.7.0.${registered}`,
    payload: { email, password, displayName, locale, acceptTerms: true, confirmAge: true },
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  const token = /token=([^;]+)/.exec(String(response.headers['set-cookie']))![1]!;
  return { email, token, displayName };
}

interface Tab {
  page: Page;
  context: BrowserContext;
  consoleLog: ReturnType<typeof collectConsole>;
  documents: string[];
  /** `METHOD path` of every API call the page made. */
  api: string[];
}

async function newTab(options: { token?: string; javaScript?: boolean } = {}): Promise<Tab> {
  const context = await browser.newContext({
    userAgent: browserUserAgent,
    timezoneId,
    javaScriptEnabled: options.javaScript ?? true,
  });
  if (options.token) await context.addCookies([{ name: 'token', value: options.token, url: base }]);
  const page = await context.newPage();
  const consoleLog = collectConsole(page);
  const documents: string[] = [];
  const api: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame())
      documents.push(url.pathname + url.search);
    if (url.pathname.startsWith('/api/')) api.push(`${request.method()} ${url.pathname}`);
  });
  return { page, context, consoleLog, documents, api };
}

async function open(path: string, options: Parameters<typeof newTab>[0] = {}): Promise<Tab> {
  const tab = await newTab(options);
  await tab.page.goto(`${base}${path}`);
  if (options.javaScript !== false) await tab.page.waitForSelector('html[data-hydrated="true"]');
  return tab;
}

const sessionShown = (page: Page) => page.waitForSelector('[data-testid="play-session"]');

/** How many play sessions the player has, as the server counts them. */
async function sessionsOf(token: string): Promise<number> {
  const response = await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } });
  return response.json<{ playSessions: unknown[] }>().playSessions.length;
}

t.test('logged out: Play goes to login and, once logged in, on to Play and a verified session', async (t) => {
  const player = await registerPlayer('Ann Player');
  const tab = await open('/asdas/rtp-explained');
  await tab.page.click('[data-nav="play"]');
  await tab.page.waitForURL(`${base}/login?redirect=%2Fplay`);
  t.pass('login, with the way back to /play');

  await tab.page.fill('input[name="email"]', player.email);
  await tab.page.fill('input[name="password"]', password);
  const played = tab.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/play');
  await tab.page.click('.account-form button[type="submit"]');
  const launchUrl = new URL((await (await played).json()).url as string, base);
  t.match(
    launchUrl.searchParams.get('launch'),
    /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/,
    'Play handed over a launch token',
  );
  await sessionShown(tab.page);
  const url = new URL(tab.page.url());
  t.equal(url.pathname, '/play', 'landed on the own play destination');
  t.same([...url.searchParams.keys()], ['session'], 'the token left the address bar once verified');
  t.equal(
    url.searchParams.get('session'),
    await tab.page.getAttribute('[data-testid="play-session"]', 'data-session-id'),
  );
  t.equal(await tab.page.textContent('[data-testid="play-user"]'), 'Ann Player', 'who is playing');
  t.match(
    await tab.page.textContent('[data-testid="play-since"]'),
    /\d{4} at \d{2}:\d{2} GMT\+7/,
    'since when, in the browser time zone',
  );
  t.ok(await tab.page.isVisible('[data-testid="responsibility-link"]'), 'the responsible-play reminders');
  t.equal(await tab.page.getAttribute('[data-testid="take-a-break-link"]', 'href'), '/account#take-a-break');
  t.same(
    tab.api.filter((call) => call.includes('/play')),
    ['POST /api/play', 'POST /api/play/verify'],
    'one Play, one verification (StrictMode runs effects twice; the token is spent once)',
  );
  t.same(tab.documents, ['/asdas/rtp-explained'], 'all in the client router');
  t.equal(await sessionsOf(player.token), 1, 'one press, through login, made one session');

  // The token is single-use: asking again (as the player: this site is its own destination) is told so.
  const again = await app.inject({
    method: 'POST',
    url: '/api/play/verify',
    headers: { authorization: `Bearer ${player.token}` },
    payload: { token: launchUrl.searchParams.get('launch') },
  });
  t.equal(again.json().code, 'LAUNCH_TOKEN_USED');

  // A reload shows the same session (from the server's render), spending nothing.
  await tab.page.reload();
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  await sessionShown(tab.page);
  t.equal(await tab.page.textContent('[data-testid="play-user"]'), 'Ann Player');
  t.equal(new URL(tab.page.url()).search, url.search, 'the same address');
  t.equal(tab.api.filter((call) => call === 'POST /api/play/verify').length, 1, 'no second verification');
  t.same(tab.consoleLog.problems(), [], 'no errors or hydration warnings');

  // Arriving from that Play once does not make /play press Play again later.
  await tab.page.goto(`${base}/play`);
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  await settled(tab.page);
  t.equal(await sessionsOf(player.token), 1, 'a later visit to /play starts nothing');
  await tab.context.close();

  // Another browser with the used link: told it was used (the server spent nothing), offered Play again.
  const other = await open(`${launchUrl.pathname}${launchUrl.search}`, { token: player.token });
  await other.page.waitForSelector('[data-testid="launch-error"]');
  t.equal(new URL(other.page.url()).search, '?problem=used', 'the used token is gone from the address too');
  t.equal(await other.page.getAttribute('[data-testid="launch-error"]', 'data-code'), 'LAUNCH_TOKEN_USED');
  t.match(await other.page.textContent('[data-testid="launch-error"]'), /already been used/);
  t.ok(await other.page.isVisible('[data-testid="play-again"]'));
  await other.context.close();
});

t.test('without JavaScript: Play is a form; login and back, then the session, with the token never kept', async (t) => {
  const player = await registerPlayer('Noscript Player');
  const tab = await open('/bonus', { javaScript: false });
  await tab.page.click('[data-nav="play"]');
  await tab.page.waitForURL(`${base}/login?redirect=%2Fplay`);
  await tab.page.fill('input[name="email"]', player.email);
  await tab.page.fill('input[name="password"]', password);
  await tab.page.click('.account-form button[type="submit"]');
  await tab.page.waitForURL(`${base}/play`);
  t.equal(
    await tab.page.textContent('[data-testid="flash-notice"] .notice-text'),
    'You are signed in.',
    'the sign-in notice',
  );
  t.equal(
    await tab.page.locator('[data-testid="play-status"]').count(),
    0,
    'nothing waits for a script: the Play button, pressed by the visitor',
  );

  await tab.page.click('[data-testid="play-again"]');
  await sessionShown(tab.page);
  const url = new URL(tab.page.url());
  t.same([...url.searchParams.keys()], ['session'], 'the server spent the token and sent the address without it');
  t.equal(await tab.page.textContent('[data-testid="play-user"]'), 'Noscript Player');
  t.match(
    await tab.page.textContent('[data-testid="play-since"]'),
    /\d{4} at \d{2}:\d{2}/,
    'since when (server time zone without JavaScript)',
  );
  const launched = tab.documents.find((document) => document.includes('launch='));
  t.match(launched, /^\/play\?launch=/, 'the launch URL was loaded once, as a document');
  t.equal(tab.documents.filter((document) => document.includes('launch=')).length, 1);

  await tab.page.reload();
  await sessionShown(tab.page);
  t.equal(
    await tab.page.textContent('[data-testid="play-user"]'),
    'Noscript Player',
    'a reload shows the same session',
  );
  t.same(tab.api, [], 'no API call: all form posts and documents');

  // The reminder is a form too: chosen, set, kept in the address; the page reloads itself when one
  // is due, and then says how long the session has lasted.
  const sessionId = url.searchParams.get('session')!;
  t.equal(await tab.page.locator('meta[http-equiv="refresh"]').count(), 0, 'no reminder, no refresh');
  await tab.page.selectOption('[data-testid="reminder-choice"]', '30');
  await tab.page.click('[data-testid="reminder-save"]');
  await tab.page.waitForURL((next) => next.searchParams.get('remind') === '30');
  t.equal(new URL(tab.page.url()).searchParams.get('session'), sessionId, 'the same session');
  t.equal(await tab.page.inputValue('[data-testid="reminder-choice"]'), '30', 'the choice shows');
  t.equal(await tab.page.textContent('[data-testid="reminder-status"]'), 'You will be reminded every 30 minutes.');
  const refresh = Number(await tab.page.getAttribute('meta[http-equiv="refresh"]', 'content'));
  t.ok(refresh > 1700 && refresh <= 1801, `the page reloads when the first reminder is due (${refresh} s)`);
  t.equal(await tab.page.locator('[data-testid="reminder-notice"]').count(), 0, 'nothing due yet');

  // 31 minutes later (the session moved back in time): due, said, and the next refresh at 60.
  await app.db
    .updateTable('play_sessions')
    .set({ started_at: new Date(Date.now() - 31 * 60_000) })
    .where('id', '=', sessionId)
    .execute();
  await tab.page.reload();
  await sessionShown(tab.page);
  t.match(
    await tab.page.textContent('[data-testid="reminder-notice"]'),
    /^You have been playing for 31 minutes\. Time for a break\?$/,
  );
  const next = Number(await tab.page.getAttribute('meta[http-equiv="refresh"]', 'content'));
  t.ok(next > 1600 && next <= 29 * 60 + 1, `the next one at 60 minutes (${next} s)`);

  await tab.page.selectOption('[data-testid="reminder-choice"]', '0');
  await tab.page.click('[data-testid="reminder-save"]');
  await tab.page.waitForURL((next) => next.searchParams.get('remind') === '0');
  t.equal(await tab.page.textContent('[data-testid="reminder-status"]'), 'No reminders are set.');
  t.equal(await tab.page.locator('meta[http-equiv="refresh"]').count(), 0, 'off: no refresh');
  t.same(tab.api, [], 'still no API call');
  await tab.context.close();
});

t.test('logged in, Thai: the Play call to action on the home page hands over to /th/play', async (t) => {
  const player = await registerPlayer('สมชาย ใจดี', 'th');
  const tab = await open('/th', { token: player.token });
  await tab.page.click('[data-testid="play-cta-button"]');
  await sessionShown(tab.page);
  t.equal(new URL(tab.page.url()).pathname, '/th/play');
  t.equal(await tab.page.textContent('[data-testid="play-user"]'), 'สมชาย ใจดี');
  t.match(await tab.page.textContent('[data-testid="play-since"]'), /25\d\d เวลา/, 'Thai date (Buddhist era)');
  t.same(tab.consoleLog.problems(), []);
  await tab.context.close();
});

t.test('a visit to /play starts no session, in either language; one press starts one', async (t) => {
  const player = await registerPlayer('Visit Player');
  for (const path of ['/play', '/th/play']) {
    const tab = await open(path, { token: player.token });
    // Visits of every kind: the document, a reload, and a client navigation there and back.
    await tab.page.reload();
    await tab.page.waitForSelector('html[data-hydrated="true"]');
    await tab.page.click('[data-testid="responsibility-link"]');
    await tab.page.waitForURL((url) => url.pathname.endsWith('/play-responsibility'));
    await tab.page.goBack();
    await tab.page.waitForSelector('[data-testid="play-intro"]');
    await settled(tab.page);
    t.ok(await tab.page.isVisible('[data-testid="play-again"]'), `${path}: the page offers Play`);
    t.equal(await tab.page.locator('[data-testid="play-status"]').count(), 0, `${path}: nothing is starting`);
    t.same(
      tab.api.filter((call) => call.includes('/play')),
      [],
      `${path}: no Play call`,
    );
    t.same(tab.consoleLog.problems(), [], `${path}: no errors or hydration warnings`);
    await tab.context.close();
  }
  t.equal(await sessionsOf(player.token), 0, 'six visits made no session');

  const tab = await open('/play', { token: player.token });
  await tab.page.click('[data-testid="play-again"]');
  await sessionShown(tab.page);
  t.equal(await sessionsOf(player.token), 1, 'one press made one session');
  t.same(
    tab.api.filter((call) => call.includes('/play')),
    ['POST /api/play', 'POST /api/play/verify'],
    'one Play, one verification',
  );
  await tab.context.close();
});

t.test('after the launch: a way on, and a reminder select styled like every field', async (t) => {
  const player = await registerPlayer('Next Player');
  const tab = await open('/play', { token: player.token });
  await tab.page.click('[data-testid="play-again"]');
  await sessionShown(tab.page);
  t.same(
    await tab.page
      .locator('[data-testid="play-next"] a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
    ['/asdas', '/account', '/'],
    'the articles, the account, home',
  );
  for (const box of await tab.page
    .locator('[data-testid="play-next"] a, [data-testid="reminder-save"]')
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().height)))
    t.ok(box >= 44, `a target at least 44 px tall (${box})`);

  const look = (selector: string) =>
    tab.page.locator(selector).evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        height: element.getBoundingClientRect().height,
        border: `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`,
        radius: style.borderTopLeftRadius,
        background: style.backgroundColor,
        paddingLeft: style.paddingLeft,
        fontSize: style.fontSize,
      };
    });
  const select = await look('[data-testid="reminder-choice"]');
  await tab.page.goto(`${base}/account`);
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  await tab.page.click('[data-testid="profile-disclosure"] > summary');
  const input = await look('input[name="displayName"]');
  t.same(select, input, "the select looks like the account page's inputs (height, edge, padding, type)");
  t.ok(select.height >= 44, `and is at least 44 px tall (${select.height})`);
  t.same(tab.consoleLog.problems(), []);
  await tab.context.close();
});

t.test(
  'the reminder with JavaScript: set in place, kept in the address, remembered for the next session',
  async (t) => {
    const player = await registerPlayer('Reminder Player', 'th');
    const tab = await open('/th/play', { token: player.token });
    await tab.page.click('[data-testid="play-again"]');
    await sessionShown(tab.page);
    const status = tab.page.locator('[data-testid="reminder-status"]');
    t.equal(await status.getAttribute('data-minutes'), '0', 'off at first');
    await tab.page.selectOption('[data-testid="reminder-choice"]', '60');
    await tab.page.click('[data-testid="reminder-save"]');
    await tab.page.waitForSelector('[data-testid="reminder-status"][data-minutes="60"]');
    t.equal(await status.textContent(), 'ระบบจะเตือนคุณทุก 60 นาที');
    const url = new URL(tab.page.url());
    t.equal(url.searchParams.get('remind'), '60', 'the choice is in the address');
    t.equal(
      url.searchParams.get('session'),
      await tab.page.getAttribute('[data-testid="play-session"]', 'data-session-id'),
    );
    t.same(tab.documents, ['/th/play'], 'without a page load');
    t.equal(await tab.page.locator('meta[http-equiv="refresh"]').count(), 0, 'no refresh with JavaScript');

    await tab.page.reload();
    await tab.page.waitForSelector('html[data-hydrated="true"]');
    t.equal(await tab.page.inputValue('[data-testid="reminder-choice"]'), '60', 'a reload keeps it');

    // The next Play in this browser lands with the same reminder.
    await tab.page.click('header [data-nav="play"]');
    // A new session's address, not the launch address before it (which has no session yet).
    await tab.page.waitForURL(
      (next) =>
        next.searchParams.has('session') && next.searchParams.get('session') !== url.searchParams.get('session'),
    );
    await sessionShown(tab.page);
    t.equal(new URL(tab.page.url()).searchParams.get('remind'), '60', 'remembered for the next session');
    t.equal(await tab.page.inputValue('[data-testid="reminder-choice"]'), '60');
    t.same(tab.consoleLog.problems(), []);
    await tab.context.close();
  },
);

t.test('logged out, /play itself goes to login with the way back', async (t) => {
  const tab = await newTab();
  await tab.page.goto(`${base}/th/play`);
  await tab.page.waitForURL(`${base}/th/login?redirect=%2Fth%2Fplay`);
  t.pass();
  await tab.context.close();
});

t.test('a launch URL to an origin that is not allowed: a clear error, and the page stays', async (t) => {
  const player = await registerPlayer('Ben Player');
  const tab = await open('/bonus', { token: player.token });
  await tab.page.route('**/api/play', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ url: 'https://evil.example/x' }),
    }),
  );
  const leaving: string[] = [];
  tab.page.on('request', (request) => {
    if (request.url().startsWith('https://evil.example')) leaving.push(request.url());
  });
  await tab.page.click('[data-nav="play"]');
  const message = tab.page.locator('[data-testid="play-message"][data-kind="refused"]');
  await message.waitFor();
  t.match(await message.textContent(), /not on this site's list of allowed destinations/);
  await settled(tab.page);
  t.equal(tab.page.url(), `${base}/bonus`, 'still on the page');
  t.same(leaving, [], 'nothing was requested from the foreign origin');
  t.same(tab.documents, ['/bonus']);
  await tab.context.close();
});

t.test('during a break Play is refused with the end date; it cannot be shortened', async (t) => {
  const player = await registerPlayer('Chai Player', 'th');
  const taken = await app.inject({
    method: 'POST',
    url: '/api/account/self-exclusion',
    headers: { authorization: `Bearer ${player.token}` },
    payload: { period: '7d' },
  });
  t.equal(taken.statusCode, 201);
  const { until } = taken.json<{ until: string }>();

  const tab = await open('/th/asdas', { token: player.token });
  // What the date said when it first appeared: a visitor would see a UTC time flash by otherwise.
  // (A string, not a function: the test runner's transform would add helpers the page lacks.)
  await tab.page.evaluate(`(() => {
    new MutationObserver((changes, observer) => {
      const shown = document.querySelector('[data-testid="play-excluded-until"]');
      if (!shown) return;
      window.firstShownUntil = shown.textContent;
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  })()`);
  await tab.page.click('[data-nav="play"]');
  const message = tab.page.locator('[data-testid="play-message"][data-kind="self-excluded"]');
  await message.waitFor();
  t.equal(await tab.page.getAttribute('[data-testid="play-excluded-until"]', 'datetime'), until);
  const localUntil = formatDateTime(until, 'th', timezoneId);
  t.equal(
    await tab.page.evaluate('window.firstShownUntil'),
    localUntil,
    'the date, in Thai and the local zone, from the moment it appears',
  );
  t.equal(await tab.page.textContent('[data-testid="play-excluded-until"]'), localUntil, 'and it stays so');
  t.match(await message.textContent(), /คุณกำลังพักการเล่นอยู่/);
  t.equal(tab.page.url(), `${base}/th/asdas`, 'went nowhere');

  // Play pressed on /th/play during the break: refused there too, with the date.
  await tab.page.goto(`${base}/th/play`);
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  await tab.page.click('[data-testid="play-again"]');
  await tab.page.waitForSelector('[data-testid="play-message"][data-kind="self-excluded"]');
  t.equal(await tab.page.getAttribute('[data-testid="play-excluded-until"]', 'datetime'), until);

  // The account page says so, and refuses a shorter break.
  await tab.page.goto(`${base}/th/account`);
  await tab.page.waitForSelector('html[data-hydrated="true"]');
  t.equal(await tab.page.getAttribute('[data-testid="break-until"]', 'datetime'), until);
  // The server wrote UTC (the hydrating render must match it); then the reader's zone.
  await tab.page.waitForFunction(
    (expected) => document.querySelector('[data-testid="break-until"]')?.textContent === expected,
    localUntil,
  );
  t.pass(`the server-rendered date shows in the local zone once hydrated (${localUntil})`);
  await tab.page.check('input[name="period"][value="24h"]');
  await tab.page.click('[data-testid="break-continue"]');
  await tab.page.click('[data-testid="break-confirm-submit"]');
  await tab.page.waitForSelector('[data-testid="form-message"]');
  t.match(await tab.page.textContent('[data-testid="form-message"]'), /ขยายเวลาให้นานขึ้นเท่านั้น/);
  t.equal(await tab.page.getAttribute('[data-testid="break-until"]', 'datetime'), until, 'unchanged');
  t.same(
    tab.consoleLog.problems().filter((line) => !/status of (403|409)/.test(line)),
    [],
    'only the refusals the page expects',
  );
  await tab.context.close();
});

t.test('the account page with JavaScript: play sessions, then a break in two steps', async (t) => {
  const player = await registerPlayer('Dao Player');
  const androidChrome =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
  for (const userAgent of [androidChrome, 'Bench/1']) {
    await app.inject({
      method: 'POST',
      url: '/api/play',
      headers: { authorization: `Bearer ${player.token}`, 'user-agent': userAgent },
    });
  }
  const tab = await open('/', { token: player.token });
  await tab.page.click('[data-nav="account"]');
  await tab.page.waitForURL(`${base}/account`);
  await tab.page.waitForSelector('[data-testid="play-sessions"]');
  t.equal(await tab.page.locator('[data-testid="play-sessions"] tbody tr').count(), 2, 'the play sessions');
  t.same(
    (await tab.page.locator('[data-testid="play-session-device"]').allTextContents()).sort(),
    ['Chrome on Android', 'Unknown device'],
    'devices named in words, never the raw user agent',
  );
  t.equal(await tab.page.locator('[data-testid="break-status"]').count(), 0, 'no break yet');

  await tab.page.check('input[name="period"][value="30d"]');
  await tab.page.click('[data-testid="break-continue"]');
  await tab.page.waitForSelector('[data-testid="break-confirm"]');
  t.match(
    await tab.page.textContent('[data-testid="break-confirm"]'),
    /30 days.*cannot be undone/s,
    'explains it cannot be undone',
  );
  await tab.page.click('[data-testid="break-cancel"]');
  await tab.page.waitForSelector('[data-testid="break-form"]');
  t.equal(
    (
      await app.inject({ method: 'GET', url: '/api/account', headers: { authorization: `Bearer ${player.token}` } })
    ).json().selfExclusion,
    null,
    'cancel takes nothing',
  );

  await tab.page.check('input[name="period"][value="30d"]');
  await tab.page.click('[data-testid="break-continue"]');
  await tab.page.click('[data-testid="break-confirm-submit"]');
  await tab.page.waitForSelector('[data-testid="break-status"]');
  const { selfExclusion } = (
    await app.inject({ method: 'GET', url: '/api/account', headers: { authorization: `Bearer ${player.token}` } })
  ).json();
  t.equal(selfExclusion.period, '30d');
  t.equal(
    await tab.page.getAttribute('[data-testid="break-until"]', 'datetime'),
    selfExclusion.until,
    'the page shows the new break at once',
  );
  t.same(tab.documents, ['/'], 'without reloading');

  await tab.page.click('[data-nav="play"]');
  await tab.page.waitForSelector('[data-testid="play-message"][data-kind="self-excluded"]');
  t.pass('and Play is refused');
  t.same(
    tab.consoleLog.problems().filter((line) => !/status of 403/.test(line)),
    [],
    'only the refusal the page expects',
  );
  await tab.context.close();
});

t.test('the account page without JavaScript: the same two steps as form posts', async (t) => {
  const player = await registerPlayer('Eak Player');
  const tab = await open('/account', { token: player.token, javaScript: false });
  await tab.page.waitForSelector('[data-testid="no-play-sessions"]');
  await tab.page.check('input[name="period"][value="24h"]');
  await tab.page.click('[data-testid="break-continue"]');
  await tab.page.waitForSelector('[data-testid="break-confirm"]');
  await tab.page.click('[data-testid="break-confirm-submit"]');
  await tab.page.waitForSelector('[data-testid="break-status"]');
  t.equal(new URL(tab.page.url()).pathname, '/account', 'back on the account page (303)');
  const { selfExclusion } = (
    await app.inject({ method: 'GET', url: '/api/account', headers: { authorization: `Bearer ${player.token}` } })
  ).json();
  t.equal(selfExclusion.period, '24h');
  t.equal(await tab.page.getAttribute('[data-testid="break-until"]', 'datetime'), selfExclusion.until);
  t.same(
    tab.documents,
    ['/account', '/account', '/account', '/account'],
    'page, period (POST), confirmation (POST), result (GET after 303)',
  );
  await tab.context.close();
});

t.test('the play page reads as the main action, before and after Play, on a laptop and a phone', async (t) => {
  const box = async (page: Page, selector: string) => {
    const found = await page.locator(selector).first().boundingBox();
    if (!found) throw new Error(`nothing on the page is ${selector}`);
    return found;
  };
  for (const [path, name] of [
    ['/play', 'Layout Player'],
    ['/th/play', 'ผู้เล่นทดสอบ'],
  ] as const) {
    const player = await registerPlayer(name, path === '/play' ? 'en' : 'th');
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const where = `${path} at ${viewport.width}`;
      const tab = await open(path, { token: player.token });
      await tab.page.setViewportSize(viewport);
      t.equal(await tab.page.locator('.play-steps li').count(), 3, `${where}: what pressing Play does, in 3 steps`);
      t.match(
        await tab.page.textContent('[data-testid="play-launch"]'),
        path === '/play' ? /this site's play page/ : /หน้าเล่นของเว็บไซต์นี้/,
        `${where}: where Play leads`,
      );
      const head = await box(tab.page, '.play-head');
      const launch = await box(tab.page, '[data-testid="play-launch"]');
      const control = await box(tab.page, '[data-testid="play-control"]');
      const button = await box(tab.page, '[data-testid="play-again"]');
      const gap = launch.y - (head.y + head.height);
      t.ok(gap >= 8 && gap <= 40, `${where}: the action right under the heading (${gap} px)`);
      if (viewport.width > 1000) {
        t.ok(control.x >= launch.x + launch.width + 16, `${where}: "Play responsibly" beside the action`);
        t.ok(Math.abs(control.y - launch.y) <= 2, `${where}: their tops aligned`);
        t.ok(button.width >= 220, `${where}: a large Play button (${button.width} px)`);
      } else {
        t.ok(control.y >= launch.y + launch.height, `${where}: "Play responsibly" under the action`);
        t.ok(button.width >= launch.width - 80, `${where}: Play as wide as its card (${button.width} px)`);
      }
      t.ok(await tab.page.isVisible('[data-testid="reminder-later"]'), `${where}: the reminder, explained`);

      await tab.page.click('[data-testid="play-again"]');
      await sessionShown(tab.page);
      const sessionHead = await box(tab.page, '.play-head');
      const session = await box(tab.page, '[data-testid="play-session"]');
      const sessionGap = session.y - (sessionHead.y + sessionHead.height);
      t.ok(sessionGap >= 8 && sessionGap <= 40, `${where}: the session right under the heading (${sessionGap} px)`);
      t.match(
        await tab.page.textContent('[data-testid="play-destination"]'),
        path === '/play' ? 'This page, on this site' : 'หน้านี้ บนเว็บไซต์นี้',
        `${where}: where the session leads`,
      );
      t.match(await tab.page.textContent('[data-testid="play-device"]'), /Linux/, `${where}: on which device`);
      const reminder = await box(tab.page, '[data-testid="reminder-form"]');
      if (viewport.width > 1000) t.ok(reminder.x > session.x + session.width, `${where}: the reminder beside it`);
      else t.ok(reminder.y > session.y + session.height, `${where}: the reminder right under it`);
      const nextTitle = await box(tab.page, '#play-next-title');
      const nextButton = await box(tab.page, '[data-testid="play-next"] a');
      const nextGap = nextButton.y - (nextTitle.y + nextTitle.height);
      t.ok(nextGap >= 8, `${where}: "What next?" apart from its buttons (${nextGap} px)`);
      t.same(tab.consoleLog.problems(), [], `${where}: no errors`);
      await tab.context.close();
    }
  }
});
