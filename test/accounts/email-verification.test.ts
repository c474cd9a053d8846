import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { createTestDatabase, testBackends } from '../helpers/database.ts';
import { latestToken, messagesTo } from '../helpers/outbox.ts';
import { buildTestApp } from '../helpers/app.ts';
import { bearer, TestClock, tokenCookie, validRegistration } from '../helpers/accounts.ts';

const hour = 60 * 60 * 1000;

for (const backend of testBackends()) {
  t.test(`email verification on ${backend}`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const clock = new TestClock();
    const app = await buildTestApp({
      database,
      env: { PUBLIC_URL: 'https://asdas.example' },
      accounts: { clock: clock.now },
      rateLimits: { limits: { accountEmailsPerUser: { max: 2, windowMs: 15 * 60_000 } } },
    });
    t.teardown(() => app.close());
    const outbox = join(app.config.dataDir, 'outbox');

    const register = async (overrides: Record<string, unknown> = {}) => {
      const body = validRegistration(overrides);
      const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
      await app.jobs.settled();
      return { email: String(body.email), token: tokenCookie(response)!.value, user: response.json().user };
    };
    const verify = (token: unknown) =>
      app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } });
    const me = async (session: string) =>
      (await app.inject({ url: '/api/auth/me', headers: bearer(session) })).json().user;

    t.test('registration sends a link in the account language; using it verifies the address, once', async (t) => {
      const account = await register({ locale: 'en', displayName: 'Ann' });
      t.equal(account.user.emailVerified, false);
      const [message] = await messagesTo(outbox, account.email);
      t.equal(message!.subject, 'Confirm your email address for Asdas');
      t.match(message!.text, /Hello Ann,/);
      t.match(message!.text, /works once, for 24 hours/);
      t.match(message!.links[0], /^https:\/\/asdas\.example\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
      const token = await latestToken(outbox, account.email, '/verify-email');

      const answer = await verify(token);
      t.equal(answer.statusCode, 200);
      t.same(answer.json(), { emailVerified: true });
      t.equal((await me(account.token)).emailVerified, true, 'the account shows it');
      const again = await verify(token);
      t.equal(again.statusCode, 409);
      t.equal(again.json().code, 'TOKEN_USED');
    });

    t.test('a link expires after 24 hours; altered ones are refused', async (t) => {
      const account = await register({ locale: 'th' });
      const [message] = await messagesTo(outbox, account.email);
      t.equal(message!.subject, 'ยืนยันอีเมลของคุณสำหรับ Asdas', 'in Thai for a Thai account');
      const token = await latestToken(outbox, account.email, '/verify-email');
      t.equal((await verify(`${token.slice(0, 42)}${token.endsWith('x') ? 'y' : 'x'}`)).json().code, 'TOKEN_INVALID');
      t.equal((await verify('short')).statusCode, 400);
      clock.advance(24 * hour + 1000);
      const expired = await verify(token);
      t.equal(expired.statusCode, 410);
      t.equal(expired.json().code, 'TOKEN_EXPIRED');
      t.equal((await me(account.token)).emailVerified, false, 'nothing changed');
    });

    t.test('resend: a new link for the logged-in user, rate-limited; refused once verified', async (t) => {
      const account = await register();
      const resend = () =>
        app.inject({ method: 'POST', url: '/api/account/verification', headers: bearer(account.token) });
      const first = await resend();
      t.equal(first.statusCode, 202);
      t.match(first.json().message, /new link/);
      t.equal((await resend()).statusCode, 202);
      const third = await resend();
      t.equal(third.statusCode, 429, 'two resends per 15 minutes in this test');
      t.equal(third.json().code, 'RATE_LIMITED');
      await app.jobs.settled();
      const links = (await messagesTo(outbox, account.email)).filter((message) =>
        message.links.some((link) => link.includes('/verify-email?')),
      );
      t.equal(links.length, 3, 'the registration link and two resends');

      t.equal(
        (await verify(await latestToken(outbox, account.email, '/verify-email'))).statusCode,
        200,
        'the newest link works',
      );
      clock.advance(16 * 60_000);
      const verified = await resend();
      t.equal(verified.statusCode, 409);
      t.equal(verified.json().code, 'EMAIL_ALREADY_VERIFIED');
      t.equal(
        (await app.inject({ method: 'POST', url: '/api/account/verification' })).statusCode,
        401,
        'logged in only',
      );
    });
  });
}

t.test('REQUIRE_VERIFIED_EMAIL_FOR_PLAY: off by default, and when on Play refuses unverified players', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const open = await buildTestApp({ database });
  t.teardown(() => open.close());
  const strict = await buildTestApp({ database, env: { REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'true' } });
  t.teardown(() => strict.close());

  const body = validRegistration();
  const registered = await strict.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  const session = tokenCookie(registered)!.value;
  const play = (app: typeof open) =>
    app.inject({ method: 'POST', url: '/api/play', headers: bearer(session), payload: {} });

  t.equal((await play(open)).statusCode, 200, 'off by default: an unverified player plays');
  const refused = await play(strict);
  t.equal(refused.statusCode, 403);
  t.same(refused.json(), {
    statusCode: 403,
    code: 'EMAIL_NOT_VERIFIED',
    message: 'Confirm your email address before you play: use the link we sent you.',
  });

  await strict.jobs.settled();
  const token = await latestToken(join(strict.config.dataDir, 'outbox'), String(body.email), '/verify-email');
  t.equal((await strict.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { token } })).statusCode, 200);
  t.equal((await play(strict)).statusCode, 200, 'verified: Play works');
  t.throws(
    () => loadConfig({ REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'yes' }),
    /REQUIRE_VERIFIED_EMAIL_FOR_PLAY/,
    'only true or false',
  );
  t.throws(() => loadConfig({ SMTP_URL: 'http://mail.example.com' }), /SMTP_URL/, 'SMTP_URL is smtp:// or smtps://');
});
