/**
 * A flood of other keys never makes a limit forget a counter still counting (decision 0036): the
 * probe's 5,200 resets for other addresses, and 5,200 failed logins for other accounts from 520
 * addresses, with the production limits, in memory and in Redis. In memory a limit past its room
 * refuses new keys, and says so in the log, rather than dropping a live one.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { rateLimitSettings } from '../../lib/rate-limit/settings.ts';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { messagesTo } from '../helpers/outbox.ts';

const redisUrl = process.env.TEST_REDIS_URL || undefined;
if (!redisUrl) t.comment('TEST_REDIS_URL is not set: the Redis store is not tested');
const production = rateLimitSettings(loadConfig({}));
const flood = 5_200;
/** 10 requests from each: within every per-address limit (10 logins a minute, 10 resets in 15). */
const floodAddress = (i: number) => `100.64.${Math.floor(i / 10 / 250)}.${Math.floor(i / 10) % 250}`;

const database = await createTestDatabase('sqlite');
t.teardown(() => database.close());

for (const store of redisUrl ? ['memory', 'redis'] : ['memory']) {
  t.test(`in ${store}`, async (t) => {
    const logs: Record<string, unknown>[] = [];
    const app = await buildTestApp({
      database,
      logs,
      env: store === 'redis' ? { REDIS_URL: redisUrl! } : {},
      rateLimits: { limits: production, namespace: `test-floods-${randomBytes(4).toString('hex')}:` },
    });
    t.teardown(() => app.close());
    const outbox = join(app.config.dataDir, 'outbox');
    const post = (url: string, payload: Record<string, unknown>, ip: string) =>
      app.inject({ method: 'POST', url, payload, remoteAddress: ip });
    const registration = validRegistration();
    t.equal((await post('/api/auth/register', registration, '10.30.0.1')).statusCode, 201);
    const email = String(registration.email);

    t.test('password resets: 3 emails an hour, whatever is asked for other addresses', async (t) => {
      for (let i = 0; i < 5; i += 1)
        t.equal((await post('/api/auth/password-reset', { email }, '10.30.0.2')).statusCode, 202);
      for (let i = 0; i < flood; i += 1) {
        const response = await post('/api/auth/password-reset', { email: `other${i}@example.net` }, floodAddress(i));
        if (response.statusCode !== 202) t.fail(`reset ${i}: ${response.statusCode}`);
      }
      for (let i = 0; i < 5; i += 1) await post('/api/auth/password-reset', { email }, '10.30.0.3');
      await app.jobs.settled();
      const resets = (await messagesTo(outbox, email)).filter((mail) =>
        mail.links.some((link) => link.includes('/reset-password?')),
      );
      t.equal(resets.length, production.passwordResetEmailsPerAddress.max, 'no fourth email');
    });

    t.test('failed logins: the account limit holds after a flood for other accounts', async (t) => {
      const max = production.loginFailuresPerAccount.max;
      for (let i = 0; i < max; i += 1) {
        const response = await post(
          '/api/auth/login',
          { email, password: `guess ${i}` },
          `172.20.${i >> 8}.${i & 255}`,
        );
        if (response.statusCode !== 401) t.fail(`guess ${i}: ${response.statusCode}`);
      }
      t.equal((await post('/api/auth/login', { email, password: 'x' }, '172.21.0.1')).statusCode, 429, 'limit reached');
      for (let i = 0; i < flood; i += 1) {
        const response = await post(
          '/api/auth/login',
          { email: `other${i}@example.net`, password: 'x' },
          floodAddress(i),
        );
        if (response.statusCode !== 401) t.fail(`flood login ${i}: ${response.statusCode}`);
      }
      const after = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          post('/api/auth/login', { email, password: `again ${i}` }, `172.22.0.${i}`),
        ),
      );
      t.same(
        after.map((response) => response.statusCode),
        [429, 429, 429, 429, 429],
        'no new address is checked',
      );
    });

    if (store === 'memory') {
      t.test('past its room a limit refuses new keys and says so, keeping the live ones', async (t) => {
        const small = await buildTestApp({
          database,
          logs,
          rateLimits: { limits: { ...production, loginPerIp: { max: 10, windowMs: 60_000, keys: 50 } } },
        });
        t.teardown(() => small.close());
        const login = (ip: string) =>
          small.inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email, password: 'x' },
            remoteAddress: ip,
          });
        for (let i = 0; i < 50; i += 1) await login(`10.31.0.${i}`);
        const refused = await login('10.31.1.1');
        t.equal(refused.statusCode, 429, 'a new address waits for room');
        t.ok(Number(refused.headers['retry-after']) >= 1);
        t.equal((await login('10.31.0.0')).statusCode, 401, 'an address already counted goes on');
        t.ok(
          logs.some((line) => line.limit === 'login-ip' && String(line.msg).includes('new keys are refused')),
          'the log says which limit is full',
        );
      });
    }
  });
}
