import { createHmac, randomUUID } from 'node:crypto';
import t from 'tap';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { signLaunchToken } from '../../lib/play/launch-token.ts';
import * as accountPage from '../../client/pages/account.server.ts';
import { createTestDatabase, testBackends } from '../helpers/database.ts';
import {
  bearer,
  buildPlayApp,
  destination,
  testVerifyKey,
  launchOf,
  registerPlayer,
  testSecret,
} from '../helpers/play.ts';

const second = 1000;
const hour = 60 * 60 * second;
const day = 24 * hour;

for (const backend of testBackends()) {
  t.test(`play on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const { app, clock } = await buildPlayApp(database);
    t.teardown(() => app.close());

    const play = (token: string | null, payload?: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/api/play',
        headers: { ...(token ? bearer(token) : {}), 'user-agent': 'PlayTest/1.0', ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const verify = (token: unknown, headers: Record<string, string> = destination) =>
      app.inject({ method: 'POST', url: '/api/play/verify', headers, payload: { token } as object });
    const selfExclude = (token: string, period: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/account/self-exclusion',
        headers: bearer(token),
        payload: { period } as object,
      });

    t.test('Play needs a logged-in player (Bearer)', async (t) => {
      const response = await play(null, {});
      t.equal(response.statusCode, 401);
      t.match(response.json(), { statusCode: 401, code: 'UNAUTHENTICATED' });
      t.equal((await play('x'.repeat(43), {})).statusCode, 401, 'an unknown token');
    });

    t.test('Play records a session and answers the own /play page with a launch token', async (t) => {
      const { token, user } = await registerPlayer(app, { locale: 'th', displayName: 'Somchai' });
      const response = await play(token);
      t.equal(response.statusCode, 200, 'no body at all is fine');
      t.equal(response.headers['cache-control'], 'private, no-store');
      const { url } = response.json<{ url: string }>();
      t.match(
        url,
        /^\/th\/play\?launch=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/,
        "the player's locale (Thai) when none is sent",
      );
      const english = await play(token, { locale: 'en' });
      t.match(english.json().url, /^\/play\?launch=/, 'the locale sent');

      const rows = await database.db
        .selectFrom('play_sessions')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('locale')
        .execute();
      t.equal(rows.length, 2);
      t.same(
        rows.map((row) => [row.locale, row.user_agent, new Date(row.started_at).toISOString()]),
        [
          ['en', 'PlayTest/1.0', clock.now().toISOString()],
          ['th', 'PlayTest/1.0', clock.now().toISOString()],
        ],
      );
      const tokens = await database.db.selectFrom('launch_tokens').selectAll().where('user_id', '=', user.id).execute();
      t.equal(tokens.length, 2, 'each launch token is recorded by jti');
      t.ok(tokens.every((row) => row.used_at === null));
      t.equal(new Date(tokens[0]!.expires_at).getTime(), clock.now().getTime() + 60 * second, 'expires in 60 s');
    });

    t.test('bad Play bodies are 4xx', async (t) => {
      const { token } = await registerPlayer(app);
      t.match((await play(token, { locale: 'fr' })).json(), { statusCode: 400, code: 'VALIDATION_FAILED' });
      t.match((await play(token, { locale: 'en', extra: 1 })).json(), { statusCode: 400, code: 'VALIDATION_FAILED' });
      t.match((await play(token, [])).json(), { statusCode: 400 });
      const text = await app.inject({
        method: 'POST',
        url: '/api/play',
        headers: { ...bearer(token), 'content-type': 'text/plain' },
        payload: 'x',
      });
      t.equal(text.statusCode, 415);
      const broken = await app.inject({
        method: 'POST',
        url: '/api/play',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        payload: '{',
      });
      t.match(broken.json(), { statusCode: 400, code: 'MALFORMED_JSON' });
    });

    t.test('verify: valid once, then used (replays too)', async (t) => {
      const { token, user } = await registerPlayer(app, { displayName: 'Ann Player', locale: 'en' });
      const launch = launchOf(await play(token));
      const first = await verify(launch);
      t.equal(first.statusCode, 200);
      t.equal(first.headers['cache-control'], 'private, no-store');
      const body = first.json();
      t.same(body, {
        valid: true,
        user: { id: user.id, displayName: 'Ann Player' },
        session: { id: body.session.id, startedAt: clock.now().toISOString(), locale: 'en' },
      });
      const used = await database.db
        .selectFrom('launch_tokens')
        .select('used_at')
        .where('play_session_id', '=', body.session.id)
        .executeTakeFirst();
      t.equal(new Date(used!.used_at!).getTime(), clock.now().getTime(), 'marked used at the (injected) time');
      for (let replay = 0; replay < 3; replay += 1) {
        const again = await verify(launch);
        t.equal(again.statusCode, 409);
        t.match(again.json(), { statusCode: 409, code: 'LAUNCH_TOKEN_USED' });
      }
    });

    t.test('verify: two at once, exactly one succeeds', async (t) => {
      const { token } = await registerPlayer(app);
      const launch = launchOf(await play(token));
      const answers = await Promise.all([verify(launch), verify(launch), verify(launch)]);
      t.same(answers.map((answer) => answer.statusCode).sort(), [200, 409, 409]);
    });

    t.test('verify: expired after 60 s (injected clock), even if never used', async (t) => {
      const { token } = await registerPlayer(app);
      const early = launchOf(await play(token));
      const late = launchOf(await play(token));
      clock.advance(59 * second);
      t.equal((await verify(early)).statusCode, 200, 'fine at 59 s');
      clock.advance(1 * second);
      const expired = await verify(late);
      t.equal(expired.statusCode, 410);
      t.match(expired.json(), { code: 'LAUNCH_TOKEN_EXPIRED' });
      t.equal((await verify(late)).statusCode, 410, 'still expired');
      const row = await database.db
        .selectFrom('launch_tokens')
        .select('used_at')
        .where('jti', '=', JSON.parse(Buffer.from(late.split('.')[0]!, 'base64url').toString()).jti)
        .executeTakeFirst();
      t.equal(row?.used_at, null, 'an expired token is never marked used');
    });

    t.test(
      'verify: tampered, malformed and foreign tokens are invalid (400); unknown well-signed ones 404',
      async (t) => {
        const { token } = await registerPlayer(app);
        const launch = launchOf(await play(token));
        const dot = launch.indexOf('.');
        const payloadBytes = Buffer.from(launch.slice(0, dot), 'base64url');
        payloadBytes[5] = payloadBytes[5]! ^ 0x01;
        const signatureBytes = Buffer.from(launch.slice(dot + 1), 'base64url');
        signatureBytes[31] = signatureBytes[31]! ^ 0x01;
        const cases: Record<string, unknown> = {
          'a byte of the payload flipped': `${payloadBytes.toString('base64url')}${launch.slice(dot)}`,
          'a byte of the signature flipped': `${launch.slice(0, dot)}.${signatureBytes.toString('base64url')}`,
          'signed with another key': signLaunchToken(
            {
              jti: randomUUID(),
              sub: randomUUID(),
              sid: randomUUID(),
              exp: Math.floor(clock.now().getTime() / 1000) + 60,
            },
            'another-secret-that-is-at-least-32-characters',
          ),
          'no signature': launch.slice(0, dot),
          garbage: 'hello',
          empty: '',
          huge: 'A'.repeat(5000),
          'SQL in it': "x'; drop table launch_tokens; --",
        };
        for (const [name, value] of Object.entries(cases)) {
          const response = await verify(value);
          t.equal(response.statusCode, 400, name);
          t.match(response.json(), { statusCode: 400, code: 'LAUNCH_TOKEN_INVALID' }, name);
        }
        t.equal((await verify(launch)).statusCode, 200, 'the real token still works after all that');

        const unknown = signLaunchToken(
          {
            jti: randomUUID(),
            sub: randomUUID(),
            sid: randomUUID(),
            exp: Math.floor(clock.now().getTime() / 1000) + 60,
          },
          testSecret,
        );
        const answer = await verify(unknown);
        t.equal(answer.statusCode, 404);
        t.match(answer.json(), { code: 'LAUNCH_TOKEN_UNKNOWN' });

        // A payload with a field too many, correctly signed: not one of ours, so invalid.
        const encoded = Buffer.from(
          JSON.stringify({ jti: randomUUID(), sub: randomUUID(), sid: randomUUID(), exp: 9e9, admin: true }),
        ).toString('base64url');
        const odd = `${encoded}.${createHmac('sha256', testSecret).update(encoded).digest('base64url')}`;
        t.match((await verify(odd)).json(), { statusCode: 400, code: 'LAUNCH_TOKEN_INVALID' });
      },
    );

    t.test('verify: bad bodies', async (t) => {
      t.match(
        (await app.inject({ method: 'POST', url: '/api/play/verify', headers: destination, payload: {} })).json(),
        { statusCode: 400, code: 'VALIDATION_FAILED' },
      );
      t.match((await verify(42)).json(), { statusCode: 400, code: 'VALIDATION_FAILED' });
      t.match(
        (
          await app.inject({
            method: 'POST',
            url: '/api/play/verify',
            headers: destination,
            payload: { token: 'x', more: 1 },
          })
        ).json(),
        { statusCode: 400 },
      );
      const form = await app.inject({
        method: 'POST',
        url: '/api/play/verify',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'token=x',
      });
      t.equal(form.statusCode, 415);
    });

    t.test('self-exclusion blocks Play until it ends, and is never shortened', async (t) => {
      const { token } = await registerPlayer(app);
      t.equal((await play(token)).statusCode, 200, 'Play works before the break');

      const taken = await selfExclude(token, '24h');
      t.equal(taken.statusCode, 201);
      const until24h = new Date(clock.now().getTime() + day).toISOString();
      t.same(taken.json(), { until: until24h, period: '24h', startsAt: clock.now().toISOString() });

      const refused = await play(token);
      t.equal(refused.statusCode, 403);
      t.same(refused.json(), {
        statusCode: 403,
        code: 'PLAY_SELF_EXCLUDED',
        message: refused.json().message,
        until: until24h,
      });
      const sessionsBefore = await database.db.selectFrom('play_sessions').select('id').execute();

      const same = await selfExclude(token, '24h');
      t.equal(same.statusCode, 409, 'an equal period does not restart or shorten it');
      t.match(same.json(), { code: 'SELF_EXCLUSION_ACTIVE', until: until24h });

      clock.advance(12 * hour);
      const shorter = await selfExclude(token, '24h');
      t.equal(shorter.statusCode, 201, 'a new 24 h from later ends later: that extends it');
      const extended = shorter.json().until;
      t.equal(extended, new Date(clock.now().getTime() + day).toISOString());

      const longer = await selfExclude(token, '7d');
      t.equal(longer.statusCode, 201);
      const until7d = longer.json().until;
      t.equal(until7d, new Date(clock.now().getTime() + 7 * day).toISOString());
      const notShorter = await selfExclude(token, '24h');
      t.equal(notShorter.statusCode, 409, 'after 7 days, 24 hours would shorten it');
      t.match(notShorter.json(), { code: 'SELF_EXCLUSION_ACTIVE', until: until7d });

      clock.advance(7 * day - 1);
      t.match((await play(token)).json(), { statusCode: 403, until: until7d }, 'still refused 1 ms before the end');
      const account = await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) });
      t.match(account.json().selfExclusion, { until: until7d, period: '7d' });
      t.same(
        (await database.db.selectFrom('play_sessions').select('id').execute()).length,
        sessionsBefore.length,
        'refused Play recorded no session',
      );

      clock.advance(1);
      t.equal((await play(token)).statusCode, 200, 'Play works again when the break ends');
      const after = await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) });
      t.equal(after.json().selfExclusion, null);
    });

    t.test('self-exclusion: each period, and bad input', async (t) => {
      const expected: Record<string, number> = { '24h': day, '7d': 7 * day, '30d': 30 * day };
      for (const period of ['24h', '7d', '30d', '6m']) {
        const { token } = await registerPlayer(app);
        const response = await selfExclude(token, period);
        t.equal(response.statusCode, 201, period);
        const until = Date.parse(response.json().until);
        if (expected[period]) t.equal(until - clock.now().getTime(), expected[period], period);
        else
          t.ok(
            until - clock.now().getTime() >= 181 * day && until - clock.now().getTime() <= 184 * day,
            '6 calendar months',
          );
      }
      const { token } = await registerPlayer(app);
      for (const bad of ['1h', '', '24H', 24, null, ['24h']]) {
        const response = await selfExclude(token, bad);
        t.equal(response.statusCode, 400, JSON.stringify(bad));
        t.match(response.json(), { code: 'VALIDATION_FAILED' });
      }
      t.equal(
        (await app.inject({ method: 'POST', url: '/api/account/self-exclusion', payload: { period: '24h' } }))
          .statusCode,
        401,
      );
      t.equal((await app.inject({ method: 'GET', url: '/api/account' })).statusCode, 401);
      const account = await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) });
      t.equal(account.json().selfExclusion, null, 'bad requests took no break');
    });

    t.test('GET /api/account: the latest 20 play sessions, newest first', async (t) => {
      const { token, user } = await registerPlayer(app);
      const other = await registerPlayer(app);
      await play(other.token);
      for (let index = 0; index < 23; index += 1) {
        await play(token, { locale: index % 2 ? 'th' : 'en' });
        clock.advance(second);
      }
      const response = await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) });
      t.equal(response.statusCode, 200);
      t.equal(response.headers['cache-control'], 'private, no-store');
      const body = response.json();
      t.equal(body.user.id, user.id);
      t.equal(body.playSessions.length, 20);
      const times = body.playSessions.map((session: { startedAt: string }) => Date.parse(session.startedAt));
      t.same(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );
      t.equal(times[0], clock.now().getTime() - second, 'the latest one');
      t.match(body.playSessions[0], { locale: 'en', userAgent: 'PlayTest/1.0' });
      t.equal(body.selfExclusion, null);
    });

    t.test('the account page data and the no-JavaScript form action', async (t) => {
      const { token, user } = await registerPlayer(app);
      await play(token);
      const publicUser = (await app.accounts.userFromToken(token))!;
      const data = (await accountPage.loader(app, {
        locale: 'en',
        params: {},
        path: '/account',
        user: publicUser,
      })) as {
        playSessions: unknown[];
        selfExclusion: unknown;
      };
      t.equal(data.playSessions.length, 1);
      t.equal(data.selfExclusion, null);
      t.match(await accountPage.loader(app, { locale: 'th', params: {}, path: '/account', user: null }), {
        playSessions: [],
        selfExclusion: null,
        seo: { title: 'บัญชีของฉัน', path: '/account', noindex: true },
      });

      // "Take a break" is the account page's form without an `intent`.
      const run = (fields: Record<string, string>, loggedIn = true, locale: 'en' | 'th' = 'th') =>
        accountPage.action(
          { locale, fields, redirectTo: null },
          { user: loggedIn ? publicUser : null, server: app, log: app.log } as never,
          {} as never,
        );

      t.same(
        await run({ period: '7d' }, false),
        { ok: true, redirect: '/th/login?redirect=%2Fth%2Faccount' },
        'logged out: log in first',
      );
      t.same(await run({}), { ok: false, status: 400, values: { period: '' }, errors: { period: 'required' } });
      t.same(await run({ period: '2y' }), {
        ok: false,
        status: 400,
        values: { period: '2y' },
        errors: { period: 'invalid_value' },
      });
      t.same(
        await run({ period: '7d' }),
        { ok: false, status: 200, values: { period: '7d', step: 'confirm' }, errors: {} },
        'asks to confirm first',
      );
      t.equal(
        (await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) })).json().selfExclusion,
        null,
        'nothing taken yet',
      );
      t.same(await run({ period: '7d', step: 'confirm' }), { ok: true, redirect: '/th/account' });
      const taken = (await app.inject({ method: 'GET', url: '/api/account', headers: bearer(token) })).json()
        .selfExclusion;
      t.match(taken, { period: '7d', until: new Date(clock.now().getTime() + 7 * day).toISOString() });
      t.same(await run({ period: '24h', step: 'confirm' }, true, 'en'), {
        ok: false,
        status: 409,
        values: { period: '24h' },
        errors: {},
        message: 'SELF_EXCLUSION_ACTIVE',
      });
      t.ok(user.id);
    });
  });
}

t.test('PLAY_URL: the destination gets the token in `launch`, its other parameters kept', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const { app } = await buildPlayApp(database, {
    env: { PLAY_URL: 'https://play.example/start?brand=asdas&launch=old' },
  });
  t.teardown(() => app.close());
  const { token } = await registerPlayer(app);
  const response = await app.inject({
    method: 'POST',
    url: '/api/play',
    headers: bearer(token),
    payload: { locale: 'en' },
  });
  const url = new URL(response.json().url);
  t.equal(url.origin, 'https://play.example');
  t.equal(url.pathname, '/start');
  t.equal(url.searchParams.get('brand'), 'asdas');
  t.equal(url.searchParams.getAll('launch').length, 1, 'one launch parameter');
  t.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/api/play/verify',
        headers: destination,
        payload: { token: url.searchParams.get('launch') },
      })
    ).statusCode,
    200,
  );
  t.ok(app.config.allowedExternalOrigins.includes('https://play.example'), "PLAY_URL's origin is on the allow-list");
});

t.test("verify: only the destination (its key) or the token's own player may spend a token", async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const { app } = await buildPlayApp(database);
  t.teardown(() => app.close());
  const verify = (token: string, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/play/verify', headers, payload: { token } });
  const ann = await registerPlayer(app, { displayName: 'Ann' });
  const bob = await registerPlayer(app, { displayName: 'Bob' });
  const launch = launchOf(await app.inject({ method: 'POST', url: '/api/play', headers: bearer(ann.token) }));

  for (const [name, headers] of [
    ['no credentials', {}],
    ['a wrong key', { authorization: `Bearer ${'w'.repeat(40)}` }],
    ['the key in another scheme', { authorization: `Basic ${testVerifyKey}` }],
    ['the key as a cookie', { cookie: `token=${testVerifyKey}` }],
    ["the player's session as a cookie only", { cookie: `token=${ann.token}` }],
  ] as const) {
    const refused = await verify(launch, headers);
    t.equal(refused.statusCode, 401, `${name}: 401`);
    t.match(refused.json(), { statusCode: 401, code: 'PLAY_VERIFY_UNAUTHORIZED' });
    t.equal(refused.headers['www-authenticate'], 'Bearer');
  }
  const other = await verify(launch, bearer(bob.token));
  t.equal(other.statusCode, 403, "another player's session: 403");
  t.equal(other.json().code, 'LAUNCH_TOKEN_FORBIDDEN');

  const own = await verify(launch, bearer(ann.token));
  t.equal(own.statusCode, 200, 'none of that spent it: its own player verifies it (the own /play page)');
  t.equal(own.json().user.displayName, 'Ann');
  t.equal(
    (await verify(launch, destination)).json().code,
    'LAUNCH_TOKEN_USED',
    'then it is used, for the destination too',
  );

  const second = launchOf(await app.inject({ method: 'POST', url: '/api/play', headers: bearer(bob.token) }));
  t.equal((await verify(second, destination)).statusCode, 200, "the destination verifies any player's token");
});

t.test('verify is rate-limited per address', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const { app } = await buildPlayApp(database, { rateLimits: { playVerifyPerIp: { max: 3, windowMs: 60_000 } } });
  t.teardown(() => app.close());
  const statuses: number[] = [];
  for (let index = 0; index < 5; index += 1) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/play/verify',
      headers: destination,
      payload: { token: 'x' },
    });
    statuses.push(response.statusCode);
    if (response.statusCode === 429) {
      t.match(response.json(), { statusCode: 429, code: 'RATE_LIMITED' });
      t.ok(Number(response.headers['retry-after']) > 0, 'Retry-After');
    }
  }
  t.same(statuses, [400, 400, 400, 429, 429]);
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/api/play/verify',
    headers: destination,
    remoteAddress: '10.0.0.9',
    payload: { token: 'x' },
  });
  t.equal(elsewhere.statusCode, 400, 'another address has its own count');
});

t.test('without PLAY_SECRET: a random key per process', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const one = await buildPlayApp(database, { play: { secret: undefined } });
  t.teardown(() => one.app.close());
  const { token } = await registerPlayer(one.app);
  const launch = launchOf(await one.app.inject({ method: 'POST', url: '/api/play', headers: bearer(token) }));
  const two = await buildPlayApp(database, { play: { secret: undefined }, clock: one.clock });
  t.teardown(() => two.app.close());
  t.equal(
    (
      await two.app.inject({
        method: 'POST',
        url: '/api/play/verify',
        headers: destination,
        payload: { token: launch },
      })
    ).statusCode,
    400,
    'another process cannot verify it',
  );
  t.equal(
    (
      await one.app.inject({
        method: 'POST',
        url: '/api/play/verify',
        headers: destination,
        payload: { token: launch },
      })
    ).statusCode,
    200,
    'its own process can',
  );
});

t.test('config: PLAY_URL in production needs PLAY_SECRET; its origin joins the allow-list', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production', PLAY_URL: 'https://play.example/go' }), ConfigError);
  t.throws(
    () => loadConfig({ NODE_ENV: 'production', PLAY_URL: 'https://play.example/go' }),
    /PLAY_SECRET is required when PLAY_URL is set/,
  );
  t.throws(
    () => loadConfig({ NODE_ENV: 'production', PLAY_URL: 'https://play.example/go', PLAY_SECRET: 'short' }),
    /PLAY_SECRET/,
  );
  t.throws(
    () => loadConfig({ NODE_ENV: 'production', PLAY_URL: 'https://play.example/go', PLAY_SECRET: 'p'.repeat(32) }),
    /PLAY_VERIFY_KEY is required when PLAY_URL is set/,
    'the destination needs a key to verify tokens with',
  );
  t.throws(() => loadConfig({ PLAY_VERIFY_KEY: 'short' }), /PLAY_VERIFY_KEY must be at least 32 characters$/);
  const config = loadConfig({
    NODE_ENV: 'production',
    PLAY_URL: 'https://Play.Example:443/go?x=1',
    PLAY_SECRET: 'p'.repeat(32),
    PLAY_VERIFY_KEY: 'k'.repeat(32),
    ALLOWED_EXTERNAL_ORIGINS: 'https://help.example, https://play.example',
  });
  t.same(config.allowedExternalOrigins, ['https://help.example', 'https://play.example'], 'normalised, once');
  t.same(loadConfig({ NODE_ENV: 'production' }).allowedExternalOrigins, [], 'nothing by default');
  t.doesNotThrow(
    () => loadConfig({ NODE_ENV: 'development', PLAY_URL: 'https://play.example/go' }),
    'outside production a random key will do',
  );
});
