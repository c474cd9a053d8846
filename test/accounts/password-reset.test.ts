import { createHash } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { createTestDatabase, testBackends } from '../helpers/database.ts';
import { latestToken, messagesTo, readOutbox, tokenOf } from '../helpers/outbox.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, TestClock, tokenCookie, validRegistration } from '../helpers/accounts.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const minute = 60_000;

for (const backend of testBackends()) {
  t.test(`password reset on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const clock = new TestClock();
    const app = await buildTestApp({
      database,
      env: { PUBLIC_URL: 'https://asdas.example', TRUST_PROXY: 'true' },
      accounts: { clock: clock.now },
    });
    t.teardown(() => app.close());
    const outbox = join(app.config.dataDir, 'outbox');
    const db = database.db;

    const register = async (overrides: Record<string, unknown> = {}) => {
      const body = validRegistration(overrides);
      const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
      t.equal(response.statusCode, 201);
      await app.jobs.settled(); // the verification email is out of the way
      return {
        email: String(body.email),
        password: String(body.password),
        token: tokenCookie(response)!.value,
        user: response.json().user,
      };
    };
    const ask = (email: unknown, ip = '10.0.0.1') =>
      app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress: ip });
    const confirm = (token: unknown, password: unknown) =>
      app.inject({ method: 'POST', url: '/api/auth/password-reset/confirm', payload: { token, password } });
    const login = (email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    /** Asks for a link and returns its token from the email. */
    const resetLink = async (email: string) => {
      t.equal((await ask(email)).statusCode, 202);
      await app.jobs.settled();
      return latestToken(outbox, email, '/reset-password');
    };

    t.test('known and unknown addresses get the same answer; only the known one gets an email', async (t) => {
      const { email } = await register({ locale: 'th', displayName: 'สมชาย' });
      const before = (await readOutbox(outbox)).length;
      const known = await ask(` ${email.toUpperCase()} `);
      const unknown = await ask('nobody.at.all@example.com');
      const shape = (response: typeof known) => {
        const { date: _date, 'request-id': _id, 'x-request-id': _xid, ...headers } = response.headers;
        return { status: response.statusCode, body: response.body, headers };
      };
      t.same(shape(known), shape(unknown), 'status, body and headers are identical');
      t.equal(known.statusCode, 202);
      t.match(known.json().message, /If an account uses this address/);
      t.equal(known.headers['cache-control'], 'private, no-store');

      await app.jobs.settled();
      const sent = (await readOutbox(outbox)).slice(before);
      t.equal(sent.length, 1, 'one email, to the known address only');
      const [message] = sent;
      t.equal(message!.to, email);
      t.equal(message!.language, 'th', 'in the language of the account');
      t.equal(message!.subject, 'ตั้งรหัสผ่านใหม่สำหรับ Asdas');
      t.match(message!.text, /สวัสดีคุณ สมชาย/);
      t.match(message!.text, /ภายใน 30 นาที/);
      t.match(
        message!.html,
        /<a href="https:\/\/asdas\.example\/th\/reset-password\?token=[A-Za-z0-9_-]{43}"/,
        'HTML with the link',
      );
      t.equal(message!.links.length, 1);
      t.match(
        message!.links[0],
        /^https:\/\/asdas\.example\/th\/reset-password\?token=[A-Za-z0-9_-]{43}$/,
        'the link is built from PUBLIC_URL',
      );

      const token = tokenOf(message!, '/reset-password');
      const rows = await db
        .selectFrom('account_tokens')
        .selectAll()
        .where('email', '=', email)
        .where('purpose', '=', 'password_reset')
        .execute();
      t.equal(rows.length, 1);
      t.equal(rows[0]!.token_hash, sha256(token), 'only the hash is stored');
      t.equal(rows[0]!.purpose, 'password_reset');
      t.equal(
        new Date(rows[0]!.expires_at).getTime() - new Date(rows[0]!.created_at).getTime(),
        30 * minute,
        'valid 30 minutes',
      );
    });

    // Timing: the lookup, the link and the email run after the answer, so a known address cannot
    // take longer to answer than an unknown one. Shown by holding the lookup: the answer comes
    // while it is held (were the answer to wait for it, this test would time out).
    t.test('the answer does not wait for the address lookup (no enumeration by timing)', async (t) => {
      const { email } = await register();
      const { service } = app.passwordResets;
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let started: () => void = () => {};
      const lookupStarted = new Promise<void>((resolve) => (started = resolve));
      const issue = service.issue;
      service.issue = async function (this: typeof service, address: string) {
        started();
        await held;
        return issue.call(this, address);
      };
      t.teardown(() => {
        service.issue = issue;
      });
      const before = (await messagesTo(outbox, email)).length;

      const known = await ask(email);
      t.equal(known.statusCode, 202, 'answered while the lookup of a known address is held');
      await lookupStarted;
      t.equal((await messagesTo(outbox, email)).length, before, 'no link yet: the answer came first');
      release();
      await app.jobs.settled();
      t.equal((await messagesTo(outbox, email)).length, before + 1, 'then the link is sent');
    });

    t.test('the new password: registration rules, then every session ends and the visitor is logged in', async (t) => {
      const account = await register();
      const otherDevice = tokenCookie(await login(account.email, account.password))!.value;
      const token = await resetLink(account.email);

      const short = await confirm(token, 'short');
      t.equal(short.statusCode, 400);
      t.same(short.json().fields, { password: 'too_short' });
      const sameAsEmail = await confirm(token, account.email);
      t.same(sameAsEmail.json().fields, { password: 'same_as_email' });
      const common = await confirm(token, 'password123');
      t.same(common.json().fields, { password: 'common_password' });
      t.equal(
        (await app.inject({ url: '/api/auth/me', headers: bearer(account.token) })).statusCode,
        200,
        'refused passwords change nothing',
      );

      const done = await confirm(token, 'a brand new passphrase');
      t.equal(done.statusCode, 200, 'answers like login');
      t.same(Object.keys(done.json()), ['user']);
      t.equal(done.json().user.email, account.email);
      t.equal(done.json().user.emailVerified, true, 'the link proved the address');
      const session = tokenCookie(done)!.value;
      t.match(session, /^[A-Za-z0-9_-]{43}$/, 'logged in: a new session cookie');
      t.equal((await app.inject({ url: '/api/auth/me', headers: bearer(session) })).statusCode, 200);
      t.equal(
        (await app.inject({ url: '/api/auth/me', headers: bearer(account.token) })).statusCode,
        401,
        'the first session ended',
      );
      t.equal(
        (await app.inject({ url: '/api/auth/me', headers: bearer(otherDevice) })).statusCode,
        401,
        'the other device ended',
      );
      t.equal((await login(account.email, account.password)).statusCode, 401, 'the old password is refused');
      t.equal((await login(account.email, 'a brand new passphrase')).statusCode, 200, 'the new one works');

      const again = await confirm(token, 'yet another passphrase');
      t.equal(again.statusCode, 409);
      t.same(again.json(), { statusCode: 409, code: 'TOKEN_USED', message: 'This link has already been used.' });
    });

    t.test('a link works for 30 minutes (injected clock)', async (t) => {
      const account = await register();
      const early = await resetLink(account.email);
      const late = await resetLink(account.email);
      clock.advance(30 * minute - 1000);
      t.equal((await confirm(early, 'a brand new passphrase')).statusCode, 200, 'just before 30 minutes');
      t.equal((await confirm(late, 'another new passphrase')).statusCode, 409, 'using one link retires the others');

      const expiring = await resetLink(account.email);
      clock.advance(30 * minute);
      const expired = await confirm(expiring, 'a brand new passphrase 2');
      t.equal(expired.statusCode, 410);
      t.same(expired.json(), { statusCode: 410, code: 'TOKEN_EXPIRED', message: 'This link has expired.' });
      t.equal((await login(account.email, 'a brand new passphrase 2')).statusCode, 401, 'nothing changed');
    });

    t.test('tampered, malformed and unknown tokens are refused without changing anything', async (t) => {
      const account = await register();
      const token = await resetLink(account.email);
      const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      for (const bad of [tampered, 'not-a-token', '', 'x'.repeat(43)]) {
        const response = await confirm(bad, 'a brand new passphrase');
        t.equal(response.statusCode, 400, `refused: ${JSON.stringify(bad)}`);
        t.equal(response.json().code, 'TOKEN_INVALID');
      }
      t.equal((await confirm(token, 'a brand new passphrase')).statusCode, 200, 'the real link still works');
    });

    t.test('simultaneous uses of one link: exactly one succeeds', async (t) => {
      const account = await register();
      const token = await resetLink(account.email);
      const sessionsBefore = (
        await db.selectFrom('sessions').select('id').where('user_id', '=', account.user.id).execute()
      ).length;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => confirm(token, `concurrent passphrase ${i}`)),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      t.same(statuses, [200, 409, 409, 409, 409, 409]);
      const winner = answers.findIndex((answer) => answer.statusCode === 200);
      t.equal(
        (await login(account.email, `concurrent passphrase ${winner}`)).statusCode,
        200,
        "the winner's password is the one set",
      );
      const live = await db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', account.user.id)
        .where('revoked_at', 'is', null)
        .execute();
      t.equal(live.length, 2, 'one session from the reset, one from the login just now');
      t.ok(sessionsBefore >= 1);
    });

    t.test('bad input is a 400 with a code, and nothing is sent', async (t) => {
      const before = (await readOutbox(outbox)).length;
      const cases: Array<[unknown, string, Record<string, string>]> = [
        [{ email: 'not an email' }, 'VALIDATION_FAILED', { email: 'invalid_email' }],
        [{ email: '' }, 'VALIDATION_FAILED', { email: 'required' }],
        [{}, 'VALIDATION_FAILED', { email: 'required' }],
        [{ email: 42 }, 'VALIDATION_FAILED', { email: 'invalid_type' }],
        [{ email: 'a@example.com', extra: 1 }, 'VALIDATION_FAILED', { extra: 'unknown_field' }],
      ];
      for (const [payload, code, fields] of cases) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: payload as object,
        });
        t.equal(response.statusCode, 400, JSON.stringify(payload));
        t.equal(response.json().code, code);
        t.same(response.json().fields, fields);
      }
      const form = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%40example.com',
      });
      t.equal(form.statusCode, 415, 'JSON only');
      const confirmBad = await app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: 5, password: [] },
      });
      t.equal(confirmBad.statusCode, 400);
      t.same(confirmBad.json().fields, { token: 'invalid_type', password: 'invalid_type' });
      await app.jobs.settled();
      t.equal((await readOutbox(outbox)).length, before, 'no email for bad input');
    });
  });
}

t.test('limits: emails per address capped (the answer never changes), requests per client refused', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({
    database,
    rateLimits: {
      limits: {
        passwordResetEmailsPerAddress: { max: 2, windowMs: 60 * minute },
        passwordResetPerIp: { max: 4, windowMs: 15 * minute },
      },
    },
  });
  t.teardown(() => app.close());
  const ask = (email: string, ip: string) =>
    app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress: ip });
  const body = validRegistration();
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/register', payload: body })).statusCode, 201);
  const known = String(body.email);

  for (const email of [known, 'unknown.person@example.com']) {
    t.equal((await ask(email, '10.9.0.1')).statusCode, 202);
    t.equal((await ask(email.toUpperCase(), '10.9.0.2')).statusCode, 202);
    const third = await ask(email, '10.9.0.3');
    t.equal(
      third.statusCode,
      202,
      `the third request for ${email === known ? 'a known' : 'an unknown'} address, from another client: the same answer`,
    );
  }
  for (let i = 0; i < 4; i += 1) t.equal((await ask(`spread${i}@example.com`, '10.9.9.9')).statusCode, 202);
  const refused = await ask('spread-last@example.com', '10.9.9.9');
  t.equal(refused.statusCode, 429, 'one client, many addresses: refused');
  t.equal(refused.json().code, 'RATE_LIMITED');
  t.ok(Number(refused.headers['retry-after']) > 0);

  await app.jobs.settled();
  const resets = (await messagesTo(join(app.config.dataDir, 'outbox'), known)).filter((message) =>
    message.links.some((link) => link.includes('/reset-password?')),
  );
  t.equal(resets.length, 2, 'two reset emails, not three');
});
