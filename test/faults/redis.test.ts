/**
 * Redis lost while the rate limits use it (docs/decisions/0010): the limits fail open to this
 * process's memory (still limited, never a 5xx, never waiting on Redis), the loss is logged once,
 * and counting goes back to Redis when it returns. A private redis-server the test kills itself.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import t from 'tap';
import { testHashing } from '../../lib/auth/passwords.ts';
import { startTestApp } from '../helpers/app.ts';
import { findRedis, startPrivateRedis } from '../helpers/private-servers.ts';

const binary = findRedis();
if (!binary) {
  t.test(
    'Redis lost while rate limits use it',
    { skip: 'redis-server is not installed (Debian package redis-server)' },
    async () => {},
  );
} else {
  const redis = await startPrivateRedis(binary);
  t.teardown(() => redis.destroy());
  const namespace = `fault-${randomBytes(3).toString('hex')}:`;
  const { app, logs, close } = await startTestApp(
    { REDIS_URL: redis.url, LOG_LEVEL: 'info' },
    {
      accounts: { passwordHashing: testHashing },
      rateLimits: { namespace, limits: { loginPerIp: { max: 3, windowMs: 60_000 } } },
    },
  );
  t.teardown(close);
  // The test's own view of the private Redis (reconnects by itself after the restart).
  const observer = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  observer.on('error', () => undefined); // it is expected to lose its connection
  t.teardown(() => observer.disconnect());

  // Another unknown address each time, so only the per-address limit is met (not the per-account one).
  let attempts = 0;
  const login = (ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { email: `nobody${(attempts += 1)}@example.com`, password: 'not the password' },
    });
  /** Four logins from one address: the limit (3 a minute) must refuse the fourth. */
  const fourLogins = async (ip: string) => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await login(ip)).statusCode);
    return statuses;
  };
  const keysFor = async (ip: string) => (await observer.keys(`${namespace}*login-ip:${ip}`)).length;
  const degradedGauge = async () => /^rate_limit_store_degraded (\d)$/m.exec(await app.metrics.registry.metrics())?.[1];
  const redisLines = () => logs.filter((line) => String(line.msg ?? '').startsWith('rate limits: Redis'));

  t.test('with Redis: counted in Redis', async (t) => {
    t.same(await fourLogins('10.20.0.1'), [401, 401, 401, 429]);
    t.equal(await keysFor('10.20.0.1'), 1, 'the counter is in Redis');
    t.equal(await degradedGauge(), '0');
  });

  t.test('Redis killed: still limited, per process, never a 5xx', async (t) => {
    await redis.kill();
    t.same(await fourLogins('10.20.0.2'), [401, 401, 401, 429], 'fail open to memory: the limit still holds');
    t.same(
      await fourLogins('10.20.0.1'),
      [401, 401, 401, 429],
      'the count in Redis is not known here: it starts again in memory',
    );
    t.equal(await degradedGauge(), '1', 'the store says so in its metric');
    const register = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '10.20.0.3',
      payload: {
        email: `redis-down-${randomBytes(3).toString('hex')}@example.com`,
        password: 'correct horse battery staple',
        displayName: 'R',
        locale: 'en',
        acceptTerms: true,
        confirmAge: true,
      },
    });
    t.equal(register.statusCode, 201, 'registration works during the outage');
    const lost = redisLines().filter((line) => line.level === 50);
    t.equal(lost.length, 1, 'the loss is logged once, at error level, not once per request');
    t.match(lost[0]?.msg, /counting in this process until it is back/);
  });

  t.test('Redis back: counting returns to it by itself', async (t) => {
    await redis.start();
    await observer.connect().catch(() => undefined);
    // Until the service's client has reconnected: one login per fresh address, until one of them
    // is counted in Redis.
    let probe = 0;
    for (;;) {
      probe += 1;
      const status = (await login(`10.21.0.${probe}`)).statusCode;
      t.ok(status === 401, `probe ${probe}: ${status}`);
      if ((await keysFor(`10.21.0.${probe}`)) === 1) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    t.equal(await degradedGauge(), '0', 'shared again, the metric says');
    t.same(await fourLogins('10.20.0.9'), [401, 401, 401, 429]);
    t.equal(await keysFor('10.20.0.9'), 1, 'counted in Redis again');
    t.ok(
      redisLines().some((line) => line.level === 30 && /answers again/.test(String(line.msg))),
      'the recovery is logged',
    );
    t.equal(redisLines().filter((line) => line.level === 50).length, 1, 'still one error line for the whole outage');
  });
}
