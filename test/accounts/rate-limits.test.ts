import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import t, { type Test } from 'tap';
import { createTestDatabase } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';

const redisUrl = process.env.TEST_REDIS_URL || undefined;
const stores: Array<'memory' | 'redis'> = redisUrl ? ['memory', 'redis'] : ['memory'];
if (!redisUrl) t.comment('TEST_REDIS_URL is not set: the Redis store is not tested');

const limits = {
  registerPerIp: { max: 2, windowMs: 60_000 },
  loginPerIp: { max: 4, windowMs: 60_000 },
  loginFailuresPerAccountAndAddress: { max: 2, windowMs: 15 * 60_000 },
  loginFailuresPerAddress: { max: 3, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { max: 3, windowMs: 60 * 60_000 },
};

const database = await createTestDatabase('sqlite');
t.teardown(() => database.close());

for (const store of stores) {
  t.test(`rate limits in ${store}`, async (t) => {
    const namespace = `test-rl-${process.pid}-${randomBytes(4).toString('hex')}:`;
    const app = await buildTestApp({
      database,
      env: store === 'redis' ? { REDIS_URL: redisUrl! } : {},
      rateLimits: { limits, namespace },
    });
    t.teardown(() => app.close());

    const register = (ip: string, body = validRegistration()) =>
      app.inject({ method: 'POST', url: '/api/auth/register', payload: body, remoteAddress: ip });
    const login = (ip: string, email: string, password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

    const expect429 = (t: Test, response: Awaited<ReturnType<typeof register>>, maxSeconds: number) => {
      t.equal(response.statusCode, 429);
      const body = response.json();
      t.equal(body.code, 'RATE_LIMITED');
      t.equal(body.statusCode, 429);
      const retryAfter = Number(response.headers['retry-after']);
      t.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= maxSeconds, `Retry-After ${retryAfter}s`);
      t.notOk(response.headers['set-cookie']);
    };

    t.test('register: per address', async (t) => {
      const ip = '10.1.0.1';
      t.equal((await register(ip)).statusCode, 201);
      t.equal((await register(ip, validRegistration({ email: 'bad' }))).statusCode, 400, 'invalid attempts count too');
      expect429(t, await register(ip), 60);
      t.equal((await register('10.1.0.2')).statusCode, 201, 'another address is not affected');
    });

    t.test('login: attempts per address, successful ones too', async (t) => {
      const body = validRegistration();
      t.equal((await register('10.2.0.9', body)).statusCode, 201);
      const ip = '10.2.0.1';
      for (let i = 0; i < 4; i += 1)
        t.equal((await login(ip, String(body.email), String(body.password))).statusCode, 200);
      expect429(t, await login(ip, String(body.email), String(body.password)), 60);
    });

    t.test('login: wrong passwords slow down the address that typed them, never the owner elsewhere', async (t) => {
      const body = validRegistration();
      const email = String(body.email);
      const password = String(body.password);
      t.equal((await register('10.3.0.1', body)).statusCode, 201);

      t.equal((await login('10.3.0.2', email, 'wrong password 1')).statusCode, 401);
      t.equal(
        (await login('10.3.0.2', email.toUpperCase(), 'wrong password 2')).statusCode,
        401,
        'the same account in other case',
      );
      const blocked = await login('10.3.0.2', email, password);
      expect429(t, blocked, 15 * 60);
      t.ok(Number(blocked.headers['retry-after']) > 60, 'the 15-minute window is the one reported');
      t.equal((await login('10.3.0.3', email, password)).statusCode, 200, 'the owner from another address logs in');

      const other = validRegistration();
      t.equal((await register('10.3.0.6', other)).statusCode, 201);
      t.equal(
        (await login('10.3.0.2', String(other.email), String(other.password))).statusCode,
        200,
        'that address may still log in to other accounts',
      );
      t.equal(
        (await login('10.3.0.8', 'unknown@example.com', 'x')).statusCode,
        401,
        'unknown emails are limited the same way',
      );
      t.equal((await login('10.3.0.8', 'unknown@example.com', 'x')).statusCode, 401);
      t.equal((await login('10.3.0.8', 'unknown@example.com', 'x')).statusCode, 429);
    });

    t.test('login: failures per address, whatever the accounts (credential stuffing)', async (t) => {
      const ip = '10.5.0.1';
      for (let i = 0; i < 3; i += 1)
        t.equal((await login(ip, `stuffed${i}@example.com`, 'wrong password')).statusCode, 401);
      const refused = await login(ip, 'stuffed-next@example.com', 'wrong password');
      expect429(t, refused, 15 * 60);
      t.ok(Number(refused.headers['retry-after']) > 60, 'the 15-minute window, not the attempts per minute');
    });

    t.test(
      'login: a guesser with many addresses stops at the account limit; addresses the owner used still get in',
      async (t) => {
        const body = validRegistration();
        const email = String(body.email);
        t.equal((await register('10.6.0.1', body)).statusCode, 201);
        t.equal(
          (await login('10.6.0.2', email, String(body.password))).statusCode,
          200,
          'the owner logs in from home once',
        );
        for (let i = 0; i < 3; i += 1)
          t.equal((await login(`10.6.1.${i}`, email, 'wrong password')).statusCode, 401, `guess from address ${i}`);
        expect429(t, await login('10.6.1.9', email, String(body.password)), 60 * 60);
        t.equal(
          (await login('10.6.0.2', email, String(body.password))).statusCode,
          200,
          'from home the owner still logs in',
        );
      },
    );
    if (store === 'redis') {
      t.test('the counters live in Redis under the namespace, with no email in the keys', async (t) => {
        const redis = new Redis(redisUrl!);
        t.teardown(() => redis.quit());
        const keys = await redis.keys(`${namespace}*`);
        t.ok(keys.length >= 3, `${keys.length} keys`);
        t.notOk(
          keys.some((key) => key.includes('@')),
          'emails are hashed',
        );
        t.ok(
          keys.every((key) =>
            /^test-rl-[^:]+:(login-ip|register-ip|login-account|login-account-ip|login-failures-ip|login-known-ip):/.test(
              key,
            ),
          ),
          'named after their limit, right after the namespace',
        );
        t.ok((await redis.pttl(keys[0]!)) > 0, 'keys expire');
        await redis.del(...keys);
      });

      t.test('a second replica shares the counters', async (t) => {
        const other = await buildTestApp({
          database,
          env: { REDIS_URL: redisUrl! },
          rateLimits: { limits, namespace },
        });
        t.teardown(() => other.close());
        const ip = '10.4.0.1';
        t.equal((await login(ip, 'a@example.com', 'wrong password')).statusCode, 401);
        t.equal(
          (
            await other.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: 'b@example.com', password: 'x' },
              remoteAddress: ip,
            })
          ).statusCode,
          401,
        );
        t.equal((await login(ip, 'c@example.com', 'wrong password')).statusCode, 401);
        t.equal(
          (
            await other.inject({
              method: 'POST',
              url: '/api/auth/login',
              payload: { email: 'd@example.com', password: 'x' },
              remoteAddress: ip,
            })
          ).statusCode,
          429,
        );
      });
    }
  });
}

t.test('an unreachable Redis stops the start with an error', async (t) => {
  await t.rejects(
    buildTestApp({ database, env: { REDIS_URL: 'redis://127.0.0.1:1' } }),
    /REDIS_URL \(127.0.0.1:1\) cannot be reached \(ECONNREFUSED\): is Redis running there/,
  );
});

t.test('RATE_LIMIT_ALLOW_LIST: listed load generators skip the per-address limits, nobody else does', async (t) => {
  const app = await buildTestApp({
    database,
    env: { RATE_LIMIT_ALLOW_LIST: '10.9.0.0/16, 192.0.2.7' },
    rateLimits: { limits, namespace: `test-allow-${process.pid}-${randomBytes(4).toString('hex')}:` },
  });
  t.teardown(() => app.close());
  const login = (ip: string, email: string, password = 'wrong password') =>
    app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
  const register = (ip: string) =>
    app.inject({ method: 'POST', url: '/api/auth/register', payload: validRegistration(), remoteAddress: ip });

  for (const ip of ['10.9.3.4', '192.0.2.7', '::ffff:10.9.0.1']) {
    for (let i = 0; i < 5; i += 1)
      t.equal((await login(ip, `user${i}-${ip}@example.com`)).statusCode, 401, `${ip} attempt ${i + 1}`);
  }
  for (let i = 0; i < 4; i += 1)
    t.equal((await register('10.9.7.7')).statusCode, 201, `registration ${i + 1} from a listed block`);

  for (let i = 0; i < 3; i += 1) t.equal((await login('10.10.0.1', `other${i}@example.com`)).statusCode, 401);
  t.equal(
    (await login('10.10.0.1', 'other@example.com')).statusCode,
    429,
    'an address outside the list keeps its limit',
  );
  t.equal((await login('192.0.2.8', 'a@example.com')).statusCode, 401);

  const account = validRegistration();
  t.equal((await register('10.9.1.1')).statusCode, 201);
  t.equal(
    (await app.inject({ method: 'POST', url: '/api/auth/register', payload: account, remoteAddress: '10.9.1.1' }))
      .statusCode,
    201,
  );
  t.equal((await login('10.9.1.2', String(account.email))).statusCode, 401);
  t.equal((await login('10.9.1.2', String(account.email))).statusCode, 401);
  t.equal(
    (await login('10.9.1.2', String(account.email), String(account.password))).statusCode,
    429,
    'the per-account failure limit still applies',
  );
});

t.test(
  'RATE_LIMIT_ALLOW_LIST: a value that is not an address or a block stops the start, naming the variable',
  async (t) => {
    const { loadConfig } = await import('../../lib/config.ts');
    for (const value of ['10.0.0.0/33', 'example.com', '10.0.0/8', '::1/129']) {
      t.throws(() => loadConfig({ RATE_LIMIT_ALLOW_LIST: value }), /RATE_LIMIT_ALLOW_LIST/, value);
    }
    t.same(loadConfig({ RATE_LIMIT_ALLOW_LIST: ' 10.0.0.0/8 ,::1 ' }).rateLimitAllowList, ['10.0.0.0/8', '::1']);
    t.same(loadConfig({}).rateLimitAllowList, [], 'empty by default');
  },
);
