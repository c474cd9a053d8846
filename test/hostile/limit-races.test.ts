/**
 * Guesses sent at once get no more password checks than the limits allow: an attempt is counted
 * before its password is checked and refunded when it was right (plugins/app/login-throttle.ts,
 * decision 0036). Every check is held until each request has either reached the hasher or been
 * answered, so all of them are in flight together, in memory and in Redis.
 */
import { randomBytes } from 'node:crypto';
import t from 'tap';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { rateLimitSettings } from '../../lib/rate-limit/settings.ts';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase } from '../helpers/database.ts';

const redisUrl = process.env.TEST_REDIS_URL || undefined;
if (!redisUrl) t.comment('TEST_REDIS_URL is not set: the Redis store is not tested');
const production = rateLimitSettings(loadConfig({}));

/** Counts the password checks, and holds each until `open()`. */
class GatedHasher extends PasswordHasher {
  checks = 0;
  onCheck = () => {};
  #open!: () => void;
  #gate = new Promise<void>((resolve) => (this.#open = resolve));
  open() {
    this.#open();
  }
  close() {
    this.#gate = new Promise<void>((resolve) => (this.#open = resolve));
    this.checks = 0;
  }
  override async verify(passwordHash: string, password: string): Promise<boolean> {
    this.checks += 1;
    this.onCheck();
    await this.#gate;
    return super.verify(passwordHash, password);
  }
}

const database = await createTestDatabase('sqlite');
t.teardown(() => database.close());

for (const store of redisUrl ? ['memory', 'redis'] : ['memory']) {
  t.test(`counted before checked, in ${store}`, async (t) => {
    const hasher = new GatedHasher(testHashing, { concurrency: 4 });
    const app = await buildTestApp({
      database,
      env: store === 'redis' ? { REDIS_URL: redisUrl! } : {},
      accounts: { passwordHasher: hasher },
      rateLimits: {
        limits: { ...production, loginFailuresPerAccount: { max: 20, windowMs: 60 * 60_000 } },
        namespace: `test-races-${randomBytes(4).toString('hex')}:`,
      },
    });
    t.teardown(() => app.close());
    const registration = validRegistration();
    hasher.open();
    t.equal(
      (
        await app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registration,
          remoteAddress: '10.9.0.1',
        })
      ).statusCode,
      201,
    );
    const email = String(registration.email);

    /** Sends every guess at once; lets the checks run once each request is checked or answered. */
    async function together(addresses: string[]) {
      hasher.close();
      let answered = 0;
      const maybeOpen = () => {
        if (hasher.checks + answered === addresses.length) hasher.open();
      };
      hasher.onCheck = maybeOpen;
      const responses = await Promise.all(
        addresses.map((ip, i) =>
          app
            .inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email, password: `guess ${i}` },
              remoteAddress: ip,
            })
            .then((response) => {
              if (response.statusCode === 429) answered += 1;
              maybeOpen();
              return response.statusCode;
            }),
        ),
      );
      return { checks: hasher.checks, statuses: responses };
    }

    t.test('30 guesses at once from one address: 5 checked', async (t) => {
      const { checks, statuses } = await together(Array.from({ length: 30 }, () => '203.0.113.30'));
      t.equal(checks, production.loginFailuresPerAccountAndAddress.max, 'no more checks than the limit');
      t.equal(statuses.filter((status) => status === 401).length, checks);
      t.equal(statuses.filter((status) => status === 429).length, 30 - checks, 'the rest wait');
    });

    t.test('60 guesses at once from 60 addresses: the account limit (20 here) checked', async (t) => {
      const { checks, statuses } = await together(Array.from({ length: 60 }, (_, i) => `198.51.100.${i + 1}`));
      t.equal(checks, 20 - production.loginFailuresPerAccountAndAddress.max, 'the 5 above count towards it');
      t.equal(statuses.filter((status) => status === 429).length, 60 - checks);
    });

    t.test('a right password is not a failure: its count is given back', async (t) => {
      hasher.open();
      const owner = validRegistration();
      await app.inject({ method: 'POST', url: '/api/auth/register', payload: owner, remoteAddress: '10.9.0.2' });
      for (let i = 0; i < 8; i += 1) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: owner.email, password: owner.password },
          remoteAddress: '10.9.0.3',
        });
        if (response.statusCode !== 200) t.fail(`login ${i + 1}: ${response.statusCode}`);
      }
      const wrong = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: owner.email, password: 'not it' },
        remoteAddress: '10.9.0.3',
      });
      t.equal(wrong.statusCode, 401, 'eight right logins left all five tries at this address');
    });
  });
}
