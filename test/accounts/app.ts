/** Builds the parts of the service the account tests need, the way app.ts assembles them. */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../lib/config.ts';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import accounts, { type AccountsPluginOptions } from '../../plugins/accounts.ts';
import configPlugin from '../../plugins/config.ts';
import database, { type DatabasePluginOptions } from '../../plugins/database.ts';
import errors from '../../plugins/errors.ts';
import health from '../../plugins/health.ts';
import authRoutes from '../../routes/api/auth.ts';
import type { TestDatabase } from '../helpers/database.ts';

export interface TestAppOptions {
  /**
   * Shared with the app as an open database. Without it (or with `openFromConfig`) the database
   * plugin opens the database from the config as in production: DATABASE_URL = `database.url`
   * for PostgreSQL, otherwise DATA_DIR from `env`.
   */
  database?: TestDatabase;
  openFromConfig?: boolean;
  env?: Record<string, string>;
  accounts?: AccountsPluginOptions;
  databaseOptions?: DatabasePluginOptions;
  /** Registers more routes before the app is ready (e.g. a probe that shows `request.user`). */
  extraRoutes?: (app: FastifyInstance) => void;
}

/** Generous limits, so only the rate-limit tests meet them. */
export const relaxedRateLimits = {
  registerPerIp: { max: 10_000, windowMs: 60_000 },
  loginPerIp: { max: 10_000, windowMs: 60_000 },
  loginFailuresPerAccount: { max: 10_000, windowMs: 60_000 },
};

export async function buildTestApp(options: TestAppOptions): Promise<FastifyInstance> {
  const env: Record<string, string> = { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...options.env };
  const shared = options.database && !options.openFromConfig ? options.database.db : undefined;
  if (options.openFromConfig && options.database) {
    if (!options.database.url) throw new Error('openFromConfig with a database needs a PostgreSQL test database');
    env.DATABASE_URL = options.database.url;
  }
  const config = loadConfig(env);
  const trustProxy = config.trustProxy;
  const app = Fastify({
    logger: false,
    // As app.ts does: a hop count becomes a function.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: config.bodyLimitBytes,
  });
  try {
    await app.register(configPlugin, { config });
    await app.register(errors);
    await app.register(cookie);
    await app.register(health);
    await app.register(database, { ...(shared ? { db: shared } : {}), ...options.databaseOptions });
    await app.register(accounts, {
      passwordHasher: new PasswordHasher(testHashing),
      sweepIntervalMs: 0,
      ...options.accounts,
      rateLimits: { ...relaxedRateLimits, ...options.accounts?.rateLimits },
    });
    await app.register(authRoutes, { prefix: '/api/auth' });
    options.extraRoutes?.(app);
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}

/** A clock the test moves by hand. */
export class TestClock {
  #now: number;
  constructor(start = Date.now()) {
    this.#now = start;
  }
  readonly now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}

export const day = 24 * 60 * 60 * 1000;

let counter = 0;
/** A registration body that passes every rule, with a unique email. */
export function validRegistration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    email: `user${counter}.${process.pid}.${Date.now()}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Somchai Jaidee',
    locale: 'th',
    acceptTerms: true,
    confirmAge: true,
    ...overrides,
  };
}

export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** The `token` cookie a response sets, with its attributes (lower-cased names). */
export function tokenCookie(response: LightMyRequestResponse): ParsedCookie | undefined {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  for (const line of lines) {
    const [pair = '', ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    if (name !== 'token') continue;
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const [key = '', ...value] = part.split('=');
      attributes[key.trim().toLowerCase()] = value.length ? value.join('=').trim() : true;
    }
    return { name, value: pair.slice(eq + 1).trim(), attributes };
  }
  return undefined;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
