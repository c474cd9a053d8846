import { createHash } from 'node:crypto';
import t from 'tap';
import { PasswordHasher, productionHashing, testHashing } from '../../lib/auth/passwords.ts';
import { countRows, createTestDatabase, testBackends } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, day, TestClock, tokenCookie, validRegistration } from '../helpers/accounts.ts';

/** A hasher that counts its verifications. */
class CountingHasher extends PasswordHasher {
  verifications = 0;
  override async verify(passwordHash: string, password: string): Promise<boolean> {
    this.verifications += 1;
    return super.verify(passwordHash, password);
  }
}

for (const backend of testBackends()) {
  t.test(`accounts API on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const clock = new TestClock();
    const hasher = new CountingHasher(testHashing);
    const app = await buildTestApp({
      database,
      env: { TRUST_PROXY: 'true', SESSION_TTL_DAYS: '30' },
      accounts: { clock: clock.now, passwordHasher: hasher },
      extraRoutes(app) {
        // Stands in for the SSR renderer: what a page render sees as the current user.
        app.get('/probe', { config: { auth: 'header-or-cookie' } }, async (request) => ({ user: request.user }));
      },
    });
    t.teardown(() => app.close());
    const db = database.db;

    const register = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/api/auth/register', payload: body, headers });
    const login = (email: string, password: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers });
    const me = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/auth/me', headers });

    t.test('register answers 201 with the user and sets the token cookie', async (t) => {
      const body = validRegistration({ email: '  Narong.K@Example.COM ', displayName: '  นรงค์ กิตติ  ' });
      const response = await register(body, { 'user-agent': 'tap' });
      t.equal(response.statusCode, 201);
      t.equal(response.headers['cache-control'], 'private, no-store');
      const { user } = response.json();
      t.same(Object.keys(user).sort(), ['createdAt', 'displayName', 'email', 'emailVerified', 'id', 'locale']);
      t.equal(user.emailVerified, false, 'not verified until the link in the email is used');
      t.equal(user.email, 'narong.k@example.com', 'email normalized');
      t.equal(user.displayName, 'นรงค์ กิตติ', 'display name trimmed');
      t.equal(user.locale, 'th');
      t.notOk('passwordHash' in user || 'password_hash' in user);

      const cookie = tokenCookie(response);
      t.ok(cookie, 'token cookie set');
      t.match(cookie!.value, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
      t.equal(cookie!.attributes.path, '/');
      t.equal(cookie!.attributes.samesite, 'Lax');
      t.equal(cookie!.attributes['max-age'], String(30 * 24 * 60 * 60), 'Max-Age is the session lifetime');
      t.notOk(cookie!.attributes.httponly, 'readable by the client API layer (it sends it as Bearer)');
      t.notOk(cookie!.attributes.secure, 'not Secure over plain http');

      const stored = await db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
      t.match(stored.password_hash, /^\$argon2id\$v=19\$/, 'argon2id');
      t.ok(stored.accepted_terms_at instanceof Date && stored.age_confirmed_at instanceof Date);
      const sessions = await db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
      t.equal(sessions.length, 1);
      t.equal(
        sessions[0]!.token_hash,
        createHash('sha256').update(cookie!.value).digest('hex'),
        'only the hash is stored',
      );
      t.equal(sessions[0]!.user_agent, 'tap');
      t.equal(new Date(sessions[0]!.expires_at).getTime(), clock.now().getTime() + 30 * day);
    });

    t.test('the cookie is Secure when the request came over HTTPS through the trusted proxy', async (t) => {
      const response = await register(validRegistration(), { 'x-forwarded-proto': 'https' });
      t.equal(response.statusCode, 201);
      t.equal(tokenCookie(response)!.attributes.secure, true);
    });

    t.test('me: the API authenticates by the Bearer header; 401 without a session', async (t) => {
      const response = await register(validRegistration());
      const token = tokenCookie(response)!.value;
      const user = response.json().user;

      const withBearer = await me(bearer(token));
      t.equal(withBearer.statusCode, 200);
      t.same(withBearer.json(), { user });
      t.equal((await me({ authorization: `bearer  ${token}` })).statusCode, 200, 'scheme is case-insensitive');
      t.equal(
        (await me({ cookie: `token=${token}` })).statusCode,
        401,
        'the API ignores the cookie (no CSRF on the API)',
      );
      t.equal((await me({ ...bearer(token), cookie: 'token=stale' })).statusCode, 200);

      const anonymous = await me({});
      t.equal(anonymous.statusCode, 401);
      t.same(anonymous.json(), { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Log in to continue.' });
      const probe = (headers: Record<string, string>) =>
        app.inject({ url: '/probe', headers }).then((r) => r.json().user);
      t.same(await probe({ cookie: `token=${token}` }), user, 'pages take the cookie');
      t.same(
        await probe({ authorization: 'Basic eDp5', cookie: `token=${token}` }),
        user,
        'another scheme: the cookie still counts',
      );
      t.equal(
        await probe({ ...bearer('x'.repeat(43)), cookie: `token=${token}` }),
        null,
        'a Bearer header wins over the cookie, even a wrong one',
      );
    });

    t.test('request.user is what a page route (the SSR render) sees', async (t) => {
      const response = await register(validRegistration({ displayName: '<script>alert(1)</script>' }));
      const token = tokenCookie(response)!.value;
      const probe = await app.inject({ url: '/probe', headers: { cookie: `token=${token}` } });
      t.same(probe.json(), { user: response.json().user });
      t.equal(probe.json().user.displayName, '<script>alert(1)</script>', 'stored as typed; pages escape it');
      t.same((await app.inject({ url: '/probe' })).json(), { user: null });
      t.same((await app.inject({ url: '/probe', headers: { cookie: 'token=nonsense' } })).json(), { user: null });
    });

    t.test('login: 200 and a new session; the same 401 for an unknown email and a wrong password', async (t) => {
      const body = validRegistration();
      const registered = await register(body);
      t.equal(registered.statusCode, 201);

      const ok = await login(` ${String(body.email).toUpperCase()} `, String(body.password));
      t.equal(ok.statusCode, 200);
      t.same(ok.json().user, registered.json().user);
      const token = tokenCookie(ok)!.value;
      t.equal(ok.json().token, token, "the body carries the cookie's token");
      t.not(token, tokenCookie(registered)!.value, 'a new token per login');
      t.equal((await me(bearer(token))).statusCode, 200);

      hasher.verifications = 0;
      const wrongPassword = await login(String(body.email), 'not the password at all');
      t.equal(hasher.verifications, 1, 'a wrong password runs one verification');
      hasher.verifications = 0;
      const unknownEmail = await login('nobody-here@example.com', String(body.password));
      t.equal(hasher.verifications, 1, 'an unknown email runs one verification too (against the dummy hash)');

      t.equal(wrongPassword.statusCode, 401);
      t.equal(unknownEmail.statusCode, 401);
      t.same(wrongPassword.json(), unknownEmail.json(), 'identical answers');
      t.same(wrongPassword.json(), {
        statusCode: 401,
        code: 'INVALID_CREDENTIALS',
        message: 'The email or the password is wrong.',
      });
      t.notOk(tokenCookie(wrongPassword));
    });

    t.test('logout revokes the session and clears the cookie; idempotent', async (t) => {
      const response = await register(validRegistration());
      const token = tokenCookie(response)!.value;
      t.equal((await me(bearer(token))).statusCode, 200);

      const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
      t.equal(out.statusCode, 204);
      t.equal(out.body, '');
      const cleared = tokenCookie(out);
      t.equal(cleared?.value, '');
      t.equal(cleared?.attributes['max-age'], '0');
      t.equal(cleared?.attributes.path, '/');

      t.equal((await me(bearer(token))).statusCode, 401, 'the token no longer works');
      t.equal((await app.inject({ url: '/probe', headers: { cookie: `token=${token}` } })).json().user, null);
      const row = await db
        .selectFrom('sessions')
        .select('revoked_at')
        .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
        .executeTakeFirstOrThrow();
      t.ok(row.revoked_at, 'revoked_at recorded');

      t.equal(
        (await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode,
        204,
        'again: 204',
      );
      t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode, 401, 'without a token: 401');
      t.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/logout',
            headers: { ...bearer(token), 'content-type': 'application/json' },
            payload: '',
          })
        ).statusCode,
        204,
        'an empty JSON body is no body',
      );

      // The API names the session by the Bearer header only: a cookie alone (another site posting
      // to /api/auth/logout with the visitor's cookies) must not end it.
      const viaCookie = tokenCookie(await register(validRegistration()))!.value;
      const crossSite = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: `token=${viaCookie}`, origin: 'https://evil.example' },
      });
      t.equal(crossSite.statusCode, 401, 'answered as a request without a session');
      t.notOk(crossSite.headers['set-cookie'], 'and the cookie is left as it is');
      t.equal((await me(bearer(viaCookie))).statusCode, 200, 'a cookie alone does not end the session');
      const other = tokenCookie(await register(validRegistration()))!.value;
      t.equal(
        (
          await app.inject({
            method: 'POST',
            url: '/api/auth/logout',
            headers: { ...bearer(other), cookie: `token=${viaCookie}` },
          })
        ).statusCode,
        204,
      );
      t.equal((await me(bearer(other))).statusCode, 401, 'the Bearer-named session ends');
      t.equal((await me(bearer(viaCookie))).statusCode, 200, 'the cookie sent alongside is left alone');
    });

    t.test('sessions expire, and slide while used (written at most once a minute)', async (t) => {
      const token = tokenCookie(await register(validRegistration()))!.value;
      const hash = createHash('sha256').update(token).digest('hex');
      const lastSeen = async () =>
        new Date(
          (
            await db
              .selectFrom('sessions')
              .select('last_seen_at')
              .where('token_hash', '=', hash)
              .executeTakeFirstOrThrow()
          ).last_seen_at,
        ).getTime();

      const first = await lastSeen();
      clock.advance(30_000);
      t.equal((await me(bearer(token))).statusCode, 200);
      t.equal(await lastSeen(), first, 'no write within the touch interval');

      clock.advance(20 * day);
      const touched = await app.inject({ url: '/probe', headers: { cookie: `token=${token}` } });
      t.ok(touched.json().user, 'still valid after 20 days');
      t.equal(await lastSeen(), clock.now().getTime(), 'last_seen_at written');
      t.equal(tokenCookie(touched)?.attributes['max-age'], String(30 * 24 * 60 * 60), 'the cookie slides with it');
      t.notOk(tokenCookie(await me(bearer(token))), 'no cookie for Bearer-only requests that did not slide');

      clock.advance(20 * day);
      t.equal((await me(bearer(token))).statusCode, 200, '40 days after login, still valid because it was used');

      clock.advance(30 * day + 1000);
      t.equal((await me(bearer(token))).statusCode, 401, 'unused for 30 days: expired');
      t.equal((await login('nobody@example.com', 'x'.repeat(10))).statusCode, 401);
    });

    t.test('two simultaneous registrations with one email: one 201, one 409', async (t) => {
      const body = validRegistration();
      const before = await countRows(db);
      const answers = await Promise.all([
        register(body),
        register({ ...body, email: ` ${String(body.email).toUpperCase()}` }),
      ]);
      t.same(answers.map((answer) => answer.statusCode).sort(), [201, 409]);
      const conflict = answers.find((answer) => answer.statusCode === 409)!;
      t.same(conflict.json(), {
        statusCode: 409,
        code: 'EMAIL_TAKEN',
        message: 'An account with this email already exists.',
        fields: { email: 'taken' },
      });
      const after = await countRows(db);
      t.equal(after.users, before.users + 1);
      t.equal(after.sessions, before.sessions + 1);
    });

    t.test('a password hashed with older parameters is rehashed at login', async (t) => {
      const body = validRegistration();
      const { user } = (await register(body)).json();
      const older = await new PasswordHasher({ ...testHashing, timeCost: 2 }).hash(String(body.password));
      await db.updateTable('users').set({ password_hash: older }).where('id', '=', user.id).execute();
      t.equal((await login(String(body.email), String(body.password))).statusCode, 200);
      const stored = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      t.not(stored.password_hash, older);
      t.notOk(hasher.needsRehash(stored.password_hash));
    });

    t.test('readiness reports the database', async (t) => {
      const response = await app.inject({ url: '/readyz' });
      t.equal(response.statusCode, 200);
      t.same(response.json(), { status: 'ok', checks: { overload: 'ok', database: 'ok' } });
    });
  });
}

t.test('with production argon2 parameters an unknown email is not answered faster', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({ database, accounts: { passwordHasher: new PasswordHasher(productionHashing) } });
  t.teardown(() => app.close());
  const body = validRegistration();
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/register', payload: body })).statusCode, 201);

  const time = async (email: string) => {
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'wrong password!' },
    });
    t.equal(response.statusCode, 401);
    return performance.now() - started;
  };
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    known.push(await time(String(body.email)));
    unknown.push(await time(`unknown-${i}@example.com`));
  }
  t.comment(`median ms: known email ${median(known).toFixed(1)}, unknown email ${median(unknown).toFixed(1)}`);
  t.ok(median(unknown) > median(known) / 10, 'the unknown-email path is not 10x faster (it verifies a dummy hash)');
});
