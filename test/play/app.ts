/** The parts of the service the play tests need, assembled as app.ts does, with a clock the test moves. */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../lib/config.ts';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import accounts from '../../plugins/accounts.ts';
import configPlugin from '../../plugins/config.ts';
import databasePlugin from '../../plugins/database.ts';
import errors from '../../plugins/errors.ts';
import formActions from '../../plugins/form-actions.ts';
import health from '../../plugins/health.ts';
import pageData from '../../plugins/page-data.ts';
import play, { type PlayPluginOptions } from '../../plugins/play.ts';
import authRoutes from '../../routes/api/auth.ts';
import { relaxedRateLimits, TestClock, validRegistration } from '../accounts/app.ts';
import type { TestDatabase } from '../helpers/database.ts';

export { TestClock, validRegistration };

export const testSecret = 'test-secret-that-is-at-least-32-characters-long';
/** PLAY_VERIFY_KEY of the test apps: what the play destination sends to verify a token. */
export const testVerifyKey = 'destination-key-that-is-at-least-32-characters';
/** The play destination's credentials. */
export const destination = { authorization: `Bearer ${testVerifyKey}` };

export interface PlayTestApp {
  app: FastifyInstance;
  clock: TestClock;
}

export async function buildPlayApp(
  database: TestDatabase,
  options: { env?: Record<string, string>; play?: PlayPluginOptions; clock?: TestClock } = {},
): Promise<PlayTestApp> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PLAY_VERIFY_KEY: testVerifyKey, ...options.env });
  const clock = options.clock ?? new TestClock(Date.parse('2026-03-01T10:00:00Z'));
  const app = Fastify({ logger: false, bodyLimit: config.bodyLimitBytes });
  try {
    await app.register(configPlugin, { config });
    await app.register(errors);
    await app.register(cookie);
    await app.register(health);
    await app.register(pageData);
    await app.register(formActions);
    await app.register(databasePlugin, { db: database.db });
    await app.register(accounts, {
      passwordHasher: new PasswordHasher(testHashing),
      sweepIntervalMs: 0,
      clock: clock.now,
      rateLimits: relaxedRateLimits,
    });
    await app.register(authRoutes, { prefix: '/api/auth' });
    await app.register(play, { secret: testSecret, now: clock.now, sweepIntervalMs: 0, ...options.play });
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return { app, clock };
}

/** Registers a player through the API; returns the token and user. */
export async function registerPlayer(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<{ token: string; user: { id: string; displayName: string; locale: string } }> {
  const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: validRegistration(overrides) });
  if (response.statusCode !== 201) throw new Error(`register answered ${response.statusCode}: ${response.body}`);
  const setCookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('token='));
  const token = setCookie?.split(';')[0]?.slice('token='.length);
  if (!token) throw new Error('no token cookie');
  return { token, user: response.json().user };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The `launch` parameter of a Play answer's URL. */
export function launchOf(response: LightMyRequestResponse): string {
  const url = new URL(response.json<{ url: string }>().url, 'http://site.test');
  const token = url.searchParams.get('launch');
  if (!token) throw new Error(`no launch token in ${url.href}`);
  return token;
}
