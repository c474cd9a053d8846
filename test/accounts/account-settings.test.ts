import { join } from 'node:path';
import t from 'tap';
import { countRows, createTestDatabase, testBackends } from '../helpers/database.ts';
import { latestToken, messagesTo } from '../helpers/outbox.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, TestClock, tokenCookie, validRegistration } from '../helpers/accounts.ts';

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

for (const backend of testBackends()) {
  t.test(`account settings on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const clock = new TestClock();
    const app = await buildTestApp({
      database,
      env: { PUBLIC_URL: 'https://asdas.example' },
      accounts: { clock: clock.now },
    });
    t.teardown(() => app.close());
    const outbox = join(app.config.dataDir, 'outbox');
    const db = database.db;

    const register = async (overrides: Record<string, unknown> = {}, userAgent = chromeOnLinux) => {
      const body = validRegistration(overrides);
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: body,
        headers: { 'user-agent': userAgent },
      });
      await app.jobs.settled();
      return {
        email: String(body.email),
        password: String(body.password),
        token: tokenCookie(response)!.value,
        user: response.json().user,
      };
    };
    const login = async (email: string, password: string, userAgent = chromeOnLinux) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
        headers: { 'user-agent': userAgent },
      });
    const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      app.inject({ method, url: `/api/account${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
    const me = async (token: string) => app.inject({ url: '/api/auth/me', headers: bearer(token) });

    t.test('display name and preferred language', async (t) => {
      const account = await register({ locale: 'en', displayName: 'Ann' });
      const saved = await call(account.token, 'PATCH', '/profile', { displayName: '  Ann Lee ', locale: 'th' });
      t.equal(saved.statusCode, 200);
      t.match(saved.json().user, { displayName: 'Ann Lee', locale: 'th' });
      t.match((await me(account.token)).json().user, { displayName: 'Ann Lee', locale: 'th' });

      const bad = await call(account.token, 'PATCH', '/profile', { displayName: 'Evil\u202egnp', locale: 'th' });
      t.equal(bad.statusCode, 400);
      t.same(bad.json().fields, { displayName: 'invalid_characters' });
      const wrongLocale = await call(account.token, 'PATCH', '/profile', { locale: 'fr' });
      t.same(wrongLocale.json().fields, { locale: 'invalid_value' });
      t.equal((await call(account.token, 'PATCH', '/profile', {})).statusCode, 400, 'something to change');
      t.equal(
        (await call(account.token, 'PATCH', '/profile', { displayName: 'X', admin: true })).json().fields.admin,
        'unknown_field',
      );
      t.match(
        (await me(account.token)).json().user,
        { displayName: 'Ann Lee', locale: 'th' },
        'refused input changed nothing',
      );
      t.equal(
        (await app.inject({ method: 'PATCH', url: '/api/account/profile', payload: { locale: 'en' } })).statusCode,
        401,
      );
    });

    t.test('changing the password needs the current one and ends the other sessions', async (t) => {
      const account = await register();
      const otherDevice = tokenCookie(await login(account.email, account.password, safariOnIphone))!.value;

      const wrong = await call(account.token, 'POST', '/password', {
        currentPassword: 'not my password',
        newPassword: 'a new passphrase 1',
      });
      t.equal(wrong.statusCode, 400);
      t.same(wrong.json().fields, { currentPassword: 'incorrect_password' });
      const weak = await call(account.token, 'POST', '/password', {
        currentPassword: account.password,
        newPassword: 'short',
      });
      t.same(weak.json().fields, { newPassword: 'too_short' });
      t.equal((await me(otherDevice)).statusCode, 200, 'refusals change nothing');

      const done = await call(account.token, 'POST', '/password', {
        currentPassword: account.password,
        newPassword: 'a new passphrase 1',
      });
      t.equal(done.statusCode, 200);
      t.same(done.json(), { endedSessions: 1 });
      t.equal((await me(account.token)).statusCode, 200, 'this session goes on');
      t.equal((await me(otherDevice)).statusCode, 401, 'the other device is logged out');
      t.equal((await login(account.email, account.password)).statusCode, 401, 'the old password no longer works');
      t.equal((await login(account.email, 'a new passphrase 1')).statusCode, 200);
    });

    t.test('changing the email: confirmed by a link to the new address, the old one is told', async (t) => {
      const account = await register({ locale: 'en', displayName: 'Mai' });
      const other = await register();
      const newEmail = `moved.${account.email}`;

      const taken = await call(account.token, 'POST', '/email', {
        currentPassword: account.password,
        newEmail: other.email.toUpperCase(),
      });
      t.equal(taken.statusCode, 409);
      t.same(taken.json().fields, { newEmail: 'taken' });
      const same = await call(account.token, 'POST', '/email', {
        currentPassword: account.password,
        newEmail: account.email,
      });
      t.same(same.json().fields, { newEmail: 'same_as_current' });
      const wrong = await call(account.token, 'POST', '/email', { currentPassword: 'wrong password!', newEmail });
      t.same(wrong.json().fields, { currentPassword: 'incorrect_password' });
      const invalid = await call(account.token, 'POST', '/email', {
        currentPassword: account.password,
        newEmail: 'nope',
      });
      t.same(invalid.json().fields, { newEmail: 'invalid_email' });

      // A reset link sent to the old address before the change must not work after it.
      t.equal(
        (await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: account.email } }))
          .statusCode,
        202,
      );
      await app.jobs.settled();
      const oldReset = await latestToken(outbox, account.email, '/reset-password');

      const first = await call(account.token, 'POST', '/email', {
        currentPassword: account.password,
        newEmail: `first.${newEmail}`,
      });
      t.equal(first.statusCode, 202);
      const asked = await call(account.token, 'POST', '/email', {
        currentPassword: account.password,
        newEmail: ` ${newEmail.toUpperCase()} `,
      });
      t.equal(asked.statusCode, 202);
      t.equal(asked.json().pendingEmail, newEmail);
      t.equal(
        (await me(account.token)).json().user.email,
        account.email,
        'the account keeps its address until the link is used',
      );
      await app.jobs.settled();
      const [confirmation] = await messagesTo(outbox, newEmail);
      t.equal(confirmation!.subject, 'Confirm your new email address for Asdas');
      t.match(confirmation!.links[0], /^https:\/\/asdas\.example\/confirm-email\?token=/);
      const withdrawn = await latestToken(outbox, `first.${newEmail}`, '/confirm-email');
      const token = await latestToken(outbox, newEmail, '/confirm-email');

      const confirm = (value: string) =>
        app.inject({ method: 'POST', url: '/api/auth/email-change/confirm', payload: { token: value } });
      t.equal((await confirm(withdrawn)).json().code, 'TOKEN_USED', 'a newer request withdraws the older link');
      const confirmed = await confirm(token);
      t.equal(confirmed.statusCode, 200);
      t.same(confirmed.json(), { email: newEmail });
      t.match(
        (await me(account.token)).json().user,
        { email: newEmail, emailVerified: true },
        'moved, and verified by the link',
      );
      t.equal((await confirm(token)).statusCode, 409, 'once');
      t.equal((await login(newEmail, account.password)).statusCode, 200);
      t.equal((await login(account.email, account.password)).statusCode, 401);
      t.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/password-reset/confirm',
            payload: { token: oldReset, password: 'hijacked passphrase' },
          })
        ).statusCode,
        409,
        'links sent to the old address are void',
      );

      await app.jobs.settled();
      const told = (await messagesTo(outbox, account.email)).find(
        (message) => message.subject === 'The email address of your Asdas account was changed',
      );
      t.ok(told, 'the old address is told');
      t.match(told!.text, new RegExp(`changed to ${newEmail.replace(/\./g, '\\.')}`));
      t.same(told!.links, [], 'with no link to act on');
    });

    t.test('an address registered by someone else before the link is used: 409, nothing changes', async (t) => {
      const account = await register();
      const wanted = `wanted.${account.email}`;
      t.equal(
        (await call(account.token, 'POST', '/email', { currentPassword: account.password, newEmail: wanted }))
          .statusCode,
        202,
      );
      await app.jobs.settled();
      const token = await latestToken(outbox, wanted, '/confirm-email');
      await register({ email: wanted });
      const clash = await app.inject({ method: 'POST', url: '/api/auth/email-change/confirm', payload: { token } });
      t.equal(clash.statusCode, 409);
      t.equal(clash.json().code, 'EMAIL_TAKEN');
      t.equal((await me(account.token)).json().user.email, account.email);
    });

    t.test('sessions: listed with devices in words, this one marked; end one or all others', async (t) => {
      const account = await register({ locale: 'th' }, chromeOnLinux);
      const phone = tokenCookie(await login(account.email, account.password, safariOnIphone))!.value;
      clock.advance(5 * 60_000);
      const third = tokenCookie(await login(account.email, account.password, 'curl/8.5'))!.value;

      const listed = await call(account.token, 'GET', '/sessions');
      t.equal(listed.statusCode, 200);
      const { sessions } = listed.json<{
        sessions: Array<{ id: string; device: string; current: boolean; createdAt: string; lastSeenAt: string }>;
      }>();
      t.equal(sessions.length, 3);
      t.same(
        sessions.map((session) => session.device).sort(),
        ['Chrome บน Linux', 'Safari บน iOS', 'อุปกรณ์ที่ไม่รู้จัก'].sort(),
        "named in words, in the account's language",
      );
      t.same(
        sessions.filter((session) => session.current).map((session) => session.device),
        ['Chrome บน Linux'],
        'the asking session is marked',
      );
      t.ok(sessions.every((session) => session.createdAt && session.lastSeenAt));

      const phoneId = sessions.find((session) => session.device === 'Safari บน iOS')!.id;
      t.equal((await call(account.token, 'DELETE', `/sessions/${phoneId}`)).statusCode, 204);
      t.equal((await me(phone)).statusCode, 401, 'the phone is logged out');
      t.equal((await call(account.token, 'DELETE', `/sessions/${phoneId}`)).statusCode, 404, 'already ended');
      t.equal((await call(account.token, 'DELETE', '/sessions/not-a-session')).statusCode, 404);

      const stranger = await register();
      const strangersId = (await call(stranger.token, 'GET', '/sessions')).json().sessions[0].id;
      t.equal(
        (await call(account.token, 'DELETE', `/sessions/${strangersId}`)).statusCode,
        404,
        "another account's session is not ours to end",
      );
      t.equal((await me(stranger.token)).statusCode, 200);

      const ended = await call(account.token, 'DELETE', '/sessions');
      t.same(ended.json(), { ended: 1 });
      t.equal((await me(third)).statusCode, 401);
      t.equal((await me(account.token)).statusCode, 200);
      t.equal((await call(account.token, 'GET', '/sessions')).json().sessions.length, 1);
    });

    t.test('deletion: password first; personal data erased, play history kept anonymised', async (t) => {
      const account = await register();
      const played = await app.inject({
        method: 'POST',
        url: '/api/play',
        headers: { ...bearer(account.token), 'user-agent': chromeOnLinux },
        payload: {},
      });
      t.equal(played.statusCode, 200);
      t.equal(
        (await app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: account.email } }))
          .statusCode,
        202,
      );
      await app.jobs.settled();

      const wrong = await call(account.token, 'DELETE', '', { password: 'not the password' });
      t.equal(wrong.statusCode, 400);
      t.same(wrong.json().fields, { password: 'incorrect_password' });
      t.equal((await call(account.token, 'DELETE', '', {})).json().fields.password, 'required');
      t.equal((await me(account.token)).statusCode, 200, 'still there');

      const before = await countRows(db);
      const deleted = await call(account.token, 'DELETE', '', { password: account.password });
      t.equal(deleted.statusCode, 204);
      t.equal(tokenCookie(deleted)?.value, '', 'the cookie is cleared');
      t.equal((await me(account.token)).statusCode, 401);
      t.equal((await login(account.email, account.password)).statusCode, 401);
      t.notOk(
        await db.selectFrom('users').select('id').where('id', '=', account.user.id).executeTakeFirst(),
        'the user row is gone',
      );
      t.equal(
        (await db.selectFrom('sessions').select('id').where('user_id', '=', account.user.id).execute()).length,
        0,
      );
      t.equal(
        (await db.selectFrom('account_tokens').select('id').where('user_id', '=', account.user.id).execute()).length,
        0,
      );
      t.equal(
        (await db.selectFrom('launch_tokens').select('jti').where('user_id', '=', account.user.id).execute()).length,
        0,
      );
      const after = await countRows(db);
      t.equal(after.users, before.users - 1);
      const anonymous = await db.selectFrom('play_sessions').selectAll().where('user_id', 'is', null).execute();
      t.ok(anonymous.length >= 1, 'the play session is kept');
      t.ok(
        anonymous.every((row) => row.user_agent === null),
        'without the user agent',
      );

      const again = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: validRegistration({ email: account.email }),
      });
      t.equal(again.statusCode, 201, 'the address is free again');
    });

    t.test('deletion is refused during a break, which can never end early', async (t) => {
      const account = await register();
      t.equal((await call(account.token, 'POST', '/self-exclusion', { period: '24h' })).statusCode, 201);
      const refused = await call(account.token, 'DELETE', '', { password: account.password });
      t.equal(refused.statusCode, 409);
      t.equal(refused.json().code, 'DELETION_DURING_BREAK');
      t.equal((await me(account.token)).statusCode, 200);
    });
  });
}

t.test('wrong passwords on the account page count against the login throttle of that address', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({
    database,
    rateLimits: { limits: { loginFailuresPerAccountAndAddress: { max: 2, windowMs: 15 * 60_000 } } },
  });
  t.teardown(() => app.close());
  const body = validRegistration();
  const token = tokenCookie(await app.inject({ method: 'POST', url: '/api/auth/register', payload: body }))!.value;
  const change = (currentPassword: string) =>
    app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: bearer(token),
      payload: { currentPassword, newPassword: 'another passphrase 9' },
    });
  t.equal((await change('guess one')).statusCode, 400);
  t.equal((await change('guess two')).statusCode, 400);
  const limited = await change(String(body.password));
  t.equal(limited.statusCode, 429, 'even the right password waits now');
  t.equal(limited.json().code, 'RATE_LIMITED');
  const loginLimited = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: body.email, password: body.password },
  });
  t.equal(loginLimited.statusCode, 429, 'one limit for login and the account page');
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: body.email, password: body.password },
    remoteAddress: '10.77.0.1',
  });
  t.equal(elsewhere.statusCode, 200, 'from another address the owner logs in');
});
