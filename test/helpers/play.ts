/** What the play tests share: the service with a clock the test moves, the destination's key, players. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { RateLimitSettings } from '../../lib/rate-limit/settings.ts';
import type { PlayPluginOptions } from '../../plugins/app/play.ts';
import { bearer, TestClock, validRegistration } from './accounts.ts';
import { buildTestApp, testPlaySecret } from './app.ts';
import type { TestDatabase } from './database.ts';

export { bearer, TestClock };

export const testSecret = testPlaySecret;
/** PLAY_VERIFY_KEY of the test apps: what the play destination sends to verify a token. */
export const testVerifyKey = 'destination-key-that-is-at-least-32-characters';
/** The play destination's credentials. */
export const destination = { authorization: `Bearer ${testVerifyKey}` };

export interface PlayTestApp {
  app: FastifyInstance;
  clock: TestClock;
}

/** The service without its pages, on `database`, with Play's and the sessions' clock in the test's hand. */
export async function buildPlayApp(
  database: TestDatabase,
  options: {
    env?: Record<string, string>;
    play?: PlayPluginOptions;
    rateLimits?: Partial<RateLimitSettings>;
    clock?: TestClock;
  } = {},
): Promise<PlayTestApp> {
  const clock = options.clock ?? new TestClock(Date.parse('2026-03-01T10:00:00Z'));
  const app = await buildTestApp({
    database,
    env: { PLAY_VERIFY_KEY: testVerifyKey, ...options.env },
    accounts: { clock: clock.now },
    play: { now: clock.now, ...options.play },
    ...(options.rateLimits ? { rateLimits: { limits: options.rateLimits } } : {}),
  });
  return { app, clock };
}

/** Registers a player through the API; returns the token and user. */
export async function registerPlayer(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<{ token: string; user: { id: string; displayName: string; locale: string } }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: validRegistration(overrides),
  });
  if (response.statusCode !== 201) throw new Error(`register answered ${response.statusCode}: ${response.body}`);
  const setCookie = [response.headers['set-cookie']].flat().find((line) => line?.startsWith('token='));
  const token = setCookie?.split(';')[0]?.slice('token='.length);
  if (!token) throw new Error('no token cookie');
  return { token, user: response.json().user };
}

/** The `launch` parameter of a Play answer's URL. */
export function launchOf(response: LightMyRequestResponse): string {
  const url = new URL(response.json<{ url: string }>().url, 'http://site.test');
  const token = url.searchParams.get('launch');
  if (!token) throw new Error(`no launch token in ${url.href}`);
  return token;
}
