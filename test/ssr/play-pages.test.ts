import t from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// Play without JavaScript, through fastify.inject on the production build: the header's Play is
// a form posted to /play, answered like the browser's Play (logged out: login and back; logged
// in: 303 to the launch URL, PLAY_URL's only when configured; on a break or unverified: the
// translated refusal with its status), and the own /play destination spends the launch token on
// the server: the address never keeps it, nothing waits for a script, a reload shows the session.

const { app, close } = await startTestApp();
t.teardown(close);

const form = {
  'user-agent': browserUserAgent,
  origin: 'http://localhost:80',
  'content-type': 'application/x-www-form-urlencoded',
};
let registered = 0;

async function registerPlayer(target: typeof app, displayName: string, locale: 'en' | 'th' = 'en') {
  registered += 1;
  const response = await target.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: `10.9.0.${registered}`,
    payload: {
      email: `nojs${registered}.${process.pid}@example.com`,
      password: 'correct horse battery staple',
      displayName,
      locale,
      acceptTerms: true,
      confirmAge: true,
    },
  });
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  const token = /token=([^;]+)/.exec(String(response.headers['set-cookie']))![1]!;
  return {
    token,
    email: response.json().user.email as string,
    id: response.json().user.id as string,
    cookie: `token=${token}`,
  };
}

const pressPlay = (target: typeof app, path: string, cookie?: string) =>
  target.inject({ method: 'POST', url: path, headers: { ...form, ...(cookie ? { cookie } : {}) }, payload: '' });
const open = (path: string, cookie?: string, target = app) =>
  target.inject({ url: path, headers: { 'user-agent': browserUserAgent, ...(cookie ? { cookie } : {}) } });

t.test('logged out: Play goes to login with the way back to Play, in each language', async (t) => {
  const cases: [string, string][] = [
    ['/play', '/login?redirect=%2Fplay'],
    ['/th/play', '/th/login?redirect=%2Fth%2Fplay'],
  ];
  for (const [path, login] of cases) {
    const response = await pressPlay(app, path);
    t.equal(response.statusCode, 303, path);
    t.equal(response.headers.location, login);
  }
  // And logging in (without JavaScript) there continues to /play.
  const player = await registerPlayer(app, 'Way Back');
  const loggedIn = await app.inject({
    method: 'POST',
    url: '/login?redirect=%2Fplay',
    headers: form,
    payload: `email=${encodeURIComponent(player.email)}&password=${encodeURIComponent('correct horse battery staple')}`,
  });
  t.equal(loggedIn.statusCode, 303);
  t.equal(loggedIn.headers.location, '/play', 'on to Play after login');
});

t.test('logged in: 303 to the launch URL; the own destination spends the token and shows the session', async (t) => {
  const player = await registerPlayer(app, 'Nok Player');
  const pressed = await pressPlay(app, '/play', player.cookie);
  t.equal(pressed.statusCode, 303);
  const launch = new URL(String(pressed.headers.location), 'http://localhost');
  t.equal(launch.pathname, '/play', 'the site is its own destination (PLAY_URL unset)');
  const token = launch.searchParams.get('launch');
  t.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/, 'with a launch token');

  // The launch URL as the browser follows it: verified on the server, before anything renders.
  const landed = await open(`${launch.pathname}${launch.search}`, player.cookie);
  t.equal(landed.statusCode, 303, 'no page that waits for a script: a redirect');
  t.equal(landed.headers['cache-control'], 'no-store', 'never stored (browser, proxies, the page cache)');
  t.equal(landed.headers['referrer-policy'], 'same-origin');
  const session = new URL(String(landed.headers.location), 'http://localhost');
  t.equal(session.pathname, '/play');
  t.same([...session.searchParams.keys()], ['session'], 'the address names the session, not the token');
  const { playSessions } = (
    await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${player.token}` } })
  ).json();
  t.equal(session.searchParams.get('session'), playSessions[0].id, 'the session Play just started');

  const page = await open(`${session.pathname}${session.search}`, player.cookie);
  t.equal(page.statusCode, 200);
  t.match(page.body, /data-testid="play-session"/);
  t.match(page.body, /data-testid="play-user">Nok Player</, 'who is playing, in the server HTML');
  t.match(page.body, /data-testid="play-destination">This page, on this site</, 'where it leads, without a script');
  t.match(page.body, /<title>Play · Asdas<\/title>/);
  t.match(page.body, /<meta name="robots" content="noindex/, 'never indexed');
  t.equal(page.headers['cache-control'], 'private, no-store');
  const reloaded = await open(`${session.pathname}${session.search}`, player.cookie);
  t.match(reloaded.body, /data-testid="play-user">Nok Player</, 'a reload shows the same session');

  // The token was spent once: the same launch URL again says so, without the token in the address.
  const again = await open(`${launch.pathname}${launch.search}`, player.cookie);
  t.equal(again.statusCode, 303);
  t.equal(again.headers.location, '/play?problem=used');
  const used = await open('/play?problem=used', player.cookie);
  t.match(used.body, /data-code="LAUNCH_TOKEN_USED"[^>]*>This play link has already been used/);
  t.match(used.body, /data-testid="play-again"/, 'with Play again');

  // Another player's session id shows nothing of it.
  const other = await registerPlayer(app, 'Someone Else');
  const foreign = await open(`/play?session=${playSessions[0].id}`, other.cookie);
  t.match(foreign.body, /data-testid="play-session-unknown"/);
  t.notMatch(foreign.body, /Nok Player/);
});

t.test('/play is a page, not an action: a visit starts nothing and offers the Play form', async (t) => {
  const player = await registerPlayer(app, 'Just Looking');
  for (const path of ['/play', '/th/play', '/play', '/th/play']) {
    const page = await open(path, player.cookie);
    t.equal(page.statusCode, 200, path);
    t.match(page.body, /data-testid="play-intro"/, `${path}: says what Play does`);
    t.match(page.body, /data-testid="play-launch"/, `${path}: step by step, with where it leads`);
    t.match(page.body, /<form class="play-action" action="(\/th)?\/play" method="post">/, `${path}: the Play form`);
  }
  const { playSessions } = (
    await app.inject({ url: '/api/account', headers: { authorization: `Bearer ${player.token}` } })
  ).json();
  t.same(playSessions, [], 'four visits, no session');
});

t.test('the session page: a reminder form that works without JavaScript, and a way on', async (t) => {
  const player = await registerPlayer(app, 'Remind Me', 'th');
  const pressed = await pressPlay(app, '/th/play', player.cookie);
  const landed = await open(String(pressed.headers.location), player.cookie);
  const session = new URL(String(landed.headers.location), 'http://localhost');
  const id = session.searchParams.get('session')!;

  const plain = await open(`/th/play?session=${id}`, player.cookie);
  t.match(plain.body, /<form class="reminder-form"[^>]* action="\/th\/play" method="get">/, 'a GET form to the page');
  t.match(plain.body, new RegExp(`<input type="hidden" name="session" value="${id}"/>`), 'keeping the session');
  t.match(plain.body, /<select id="[^"]+" name="remind" class="select"/);
  t.match(plain.body, /<option value="0" selected="">ปิด<\/option>/, 'off unless asked');
  t.match(plain.body, /data-testid="reminder-save">ตั้งการเตือน</);
  t.notMatch(plain.body, /http-equiv/, 'no refresh when off');
  t.match(plain.body, /<nav class="play-next"/, 'next steps');
  for (const href of ['/th/asdas', '/th/account', '/th']) t.match(plain.body, new RegExp(`href="${href}"`));

  const asked = await open(`/th/play?session=${id}&remind=60`, player.cookie);
  t.match(asked.body, /<option value="60" selected="">ทุก 60 นาที<\/option>/, 'the choice from the address');
  t.match(asked.body, /data-minutes="60">ระบบจะเตือนคุณทุก 60 นาที</);
  const refresh =
    /<noscript>&lt;meta http-equiv="refresh" content="(\d+)"|<noscript><meta http-equiv="refresh" content="(\d+)"/.exec(
      asked.body,
    );
  t.ok(refresh, 'a refresh for a browser without JavaScript, inside <noscript>');
  const seconds = Number(refresh?.[1] ?? refresh?.[2]);
  t.ok(seconds > 3500 && seconds <= 3601, `when the first reminder is due (${seconds} s)`);
  t.notMatch(asked.body, /reminder-notice/, 'nothing due yet');

  await app.db
    .updateTable('play_sessions')
    .set({ started_at: new Date(Date.now() - 61 * 60_000) })
    .where('id', '=', id)
    .execute();
  const due = await open(`/th/play?session=${id}&remind=60`, player.cookie);
  t.match(due.body, /คุณเล่นมาแล้ว 61 นาที ถึงเวลาพักหรือยัง/, 'due: how long the session has lasted');
  t.match(
    await open(`/th/play?session=${id}&remind=45`, player.cookie).then((r) => r.body),
    /<option value="0" selected="">/,
    'an unknown choice is off',
  );
});

t.test('Thai: the same, with Thai pages; a token of another player is refused and kept', async (t) => {
  const player = await registerPlayer(app, 'สมหญิง', 'th');
  const pressed = await pressPlay(app, '/th/play', player.cookie);
  const launch = new URL(String(pressed.headers.location), 'http://localhost');
  t.equal(launch.pathname, '/th/play');

  const thief = await registerPlayer(app, 'Thief');
  const stolen = await open(`${launch.pathname}${launch.search}`, thief.cookie);
  t.equal(stolen.headers.location, '/th/play?problem=foreign');
  t.match(
    (await open('/th/play?problem=foreign', thief.cookie)).body,
    /data-code="LAUNCH_TOKEN_FORBIDDEN"[^>]*>ลิงก์สำหรับเล่นนี้เป็นของบัญชีอื่น/,
  );

  const landed = await open(`${launch.pathname}${launch.search}`, player.cookie);
  t.match(landed.headers.location, /^\/th\/play\?session=[0-9a-f-]{36}$/, 'still good for its own player');
  const page = await open(String(landed.headers.location), player.cookie);
  t.match(page.body, /<h1[^>]*>เซสชันการเล่นของคุณ<\/h1>/);
  t.match(page.body, /data-testid="play-user">สมหญิง</);

  // Logged out with a launch URL: login and back to Play, without the token.
  const anonymous = await open(`${launch.pathname}${launch.search}`);
  t.equal(anonymous.statusCode, 303);
  t.equal(anonymous.headers.location, '/th/login?redirect=%2Fth%2Fplay');
  t.equal(anonymous.headers['cache-control'], 'no-store');
  t.match((await open('/th/play?launch=not-a-token', player.cookie)).headers.location, '/th/play?problem=invalid');
});

t.test('during a break: the translated refusal page, with 403 and the end date', async (t) => {
  for (const locale of ['en', 'th'] as const) {
    const player = await registerPlayer(app, `Break ${locale}`, locale);
    const taken = await app.inject({
      method: 'POST',
      url: '/api/account/self-exclusion',
      headers: { authorization: `Bearer ${player.token}` },
      payload: { period: '7d' },
    });
    const { until } = taken.json<{ until: string }>();
    const response = await pressPlay(app, locale === 'en' ? '/play' : '/th/play', player.cookie);
    t.equal(response.statusCode, 403, locale);
    t.match(response.body, /data-testid="play-message" data-kind="self-excluded"/);
    t.match(response.body, new RegExp(`<time dateTime="${until}" data-testid="play-excluded-until">`), 'until when');
    t.match(response.body, locale === 'en' ? /You are taking a break from play/ : /คุณกำลังพักการเล่นอยู่/);
    t.notMatch(response.body, /data-testid="play-session"/, 'no session started');
  }
});

t.test(
  'PLAY_URL: 303 to the configured destination only; unverified players refused when that is required',
  async (t) => {
    const external = await startTestApp({
      PLAY_URL: 'https://play.example/start?brand=asdas',
      PLAY_SECRET: 'a-play-secret-that-is-32-characters-or-more',
      PLAY_VERIFY_KEY: 'a-verify-key-that-is-32-characters-or-more',
      REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'true',
      PUBLIC_URL: 'http://localhost',
    });
    t.teardown(external.close);
    const target = external.app;

    const unverified = await registerPlayer(target, 'Unverified');
    const refused = await pressPlay(target, '/play', unverified.cookie);
    t.equal(refused.statusCode, 403, 'an unverified address may not play here');
    t.match(refused.body, /Confirm your email address before you play/);

    const player = await registerPlayer(target, 'Verified');
    await target.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', player.id).execute();
    const offered = await open('/play', player.cookie, target);
    t.match(offered.body, /You go on to play\.example, where the games are\./, 'the page names where Play leads');
    const pressed = await pressPlay(target, '/play', player.cookie);
    t.equal(pressed.statusCode, 303);
    const location = new URL(String(pressed.headers.location));
    t.equal(location.origin, 'https://play.example', 'to PLAY_URL');
    t.equal(location.pathname, '/start');
    t.equal(location.searchParams.get('brand'), 'asdas', 'its own query kept');
    t.match(location.searchParams.get('launch'), /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);

    // Only an origin the configuration allows: a launch URL anywhere else stays on this site.
    const launchUrl = target.play.launchUrl;
    target.play.launchUrl = (_locale, token) => `https://evil.example/start?launch=${token}`;
    t.teardown(() => {
      target.play.launchUrl = launchUrl;
    });
    const diverted = await pressPlay(target, '/play', player.cookie);
    t.equal(diverted.statusCode, 303);
    t.notMatch(String(diverted.headers.location), /evil\.example/, 'never to an origin off the allow-list');
    t.match(String(diverted.headers.location), /^\/[^/\\]/, 'a path on this site instead');
  },
);
