/**
 * What the flood tests share (test/hostile/*-floods.test.ts): an app with the production limits in
 * memory or in Redis, addresses by the hundred thousand, and requests sent 50 at a time.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { rateLimitSettings } from '../../lib/rate-limit/settings.ts';
import { buildTestApp } from './app.ts';
import type { TestDatabase } from './database.ts';

export const redisUrl = process.env.TEST_REDIS_URL || undefined;
export const stores = redisUrl ? (['memory', 'redis'] as const) : (['memory'] as const);
export type Store = (typeof stores)[number];
export const production = rateLimitSettings(loadConfig({}));
/** Keys per limit a flood sends. Redis counts every key it is sent: there, fewer show the same outcomes. */
export const floods: Record<Store, number> = { memory: 100_000, redis: 10_000 };

/** The floods' password is wrong for every account: no need to hash it to say so. */
export const floodPassword = 'flood password';
class QuickToRefuse extends PasswordHasher {
  override verify(passwordHash: string, password: string): Promise<boolean> {
    return password === floodPassword ? Promise.resolve(false) : super.verify(passwordHash, password);
  }
}

/** The n-th address (n < 131,072) of flood `base`; 100.64.0.0/10 holds four million. */
export const floodAddress = (base: number, n: number) =>
  `100.${64 + base * 2 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;

/**
 * The API with the production limits, its warnings collected in `logs`. In memory time stands
 * still, so every window outlasts the flood however slow the machine.
 */
export async function floodApp(t: Test, store: Store, database: TestDatabase, logs: Record<string, unknown>[]) {
  const now = Date.now();
  const app = await buildTestApp({
    database,
    logs,
    env: { LOG_LEVEL: 'warn', ...(store === 'redis' ? { REDIS_URL: redisUrl! } : {}) },
    accounts: { passwordHasher: new QuickToRefuse(testHashing) },
    rateLimits: {
      limits: production,
      namespace: `test-floods-${randomBytes(4).toString('hex')}:`,
      ...(store === 'memory' ? { now: () => now } : {}),
    },
  });
  t.teardown(() => app.close());
  return app;
}

/** `count` POSTs, 50 at a time; any status but `expected` fails `t`. */
export async function send(
  t: Test,
  app: FastifyInstance,
  count: number,
  request: (n: number) => { url: string; payload: object; ip: string },
  expected: number,
) {
  const unexpected = new Map<number, number>();
  for (let first = 0; first < count; first += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, count - first) }, (_, k) => {
        const { url, payload, ip } = request(first + k);
        return app.inject({ method: 'POST', url, payload, remoteAddress: ip });
      }),
    );
    for (const { statusCode } of answers)
      if (statusCode !== expected) unexpected.set(statusCode, (unexpected.get(statusCode) ?? 0) + 1);
  }
  t.same(Object.fromEntries(unexpected), {}, `${count} answered ${expected}`);
}

/** A log line saying `limit` counts some keys approximately. */
export const overflowLogged = (logs: Record<string, unknown>[], limit: string) =>
  logs.some((line) => line.limit === limit && String(line.msg).includes('approximately'));

/**
 * Asks with `ask` until it is refused (429), at most `expected` + 1 times, and checks that a key
 * with `expected` tries left got no more: never fewer counts than it sent. A key counted
 * approximately may be refused a try or two early (decision 0045 gives the odds). Answers how many
 * requests it sent, the refused one included.
 */
export async function triesLeft(t: Test, ask: () => Promise<number>, expected: number, what: string) {
  let accepted = 0;
  let refused = false;
  while (accepted <= expected && !(refused = (await ask()) === 429)) accepted += 1;
  t.ok(accepted <= expected && accepted >= expected - 2, `${what}: ${accepted} more tries of ${expected}`);
  return accepted + (refused ? 1 : 0);
}
