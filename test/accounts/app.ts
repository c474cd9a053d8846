/** Builds the parts of the service the account tests need, the way app.ts assembles them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../lib/config.ts';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import { createLogger } from '../../lib/logger.ts';
import accountLinks from '../../plugins/account-links.ts';
import accounts, { type AccountsPluginOptions } from '../../plugins/accounts.ts';
import backgroundJobs from '../../plugins/background-jobs.ts';
import configPlugin from '../../plugins/config.ts';
import database, { type DatabasePluginOptions } from '../../plugins/database.ts';
import errors from '../../plugins/errors.ts';
import formActions from '../../plugins/form-actions.ts';
import health from '../../plugins/health.ts';
import accountSettings from '../../plugins/account-settings.ts';
import emailVerification from '../../plugins/email-verification.ts';
import mail, { type MailPluginOptions } from '../../plugins/mail.ts';
import pageData from '../../plugins/page-data.ts';
import passwordReset from '../../plugins/password-reset.ts';
import play from '../../plugins/play.ts';
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
  /** Shorter waits between email send attempts, by default none (tests must not wait). */
  mail?: MailPluginOptions;
  /** Collects the app's log lines (parsed) here; without it the app logs nothing. */
  logs?: Record<string, unknown>[];
}

/** Generous limits, so only the rate-limit tests meet them. */
export const relaxedRateLimits = {
  registerPerIp: { max: 10_000, windowMs: 60_000 },
  loginPerIp: { max: 10_000, windowMs: 60_000 },
  loginFailuresPerAccount: { max: 10_000, windowMs: 60_000 },
  passwordResetPerIp: { max: 10_000, windowMs: 60_000 },
  passwordResetPerAddress: { max: 10_000, windowMs: 60_000 },
  linkUsePerIp: { max: 10_000, windowMs: 60_000 },
  accountEmailsPerUser: { max: 10_000, windowMs: 60_000 },
};

/** A logger whose lines land, parsed, in `logs`. */
export function collectingLogger(logs: Record<string, unknown>[], level = 'info'): FastifyBaseLogger {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return createLogger(level, sink) as FastifyBaseLogger;
}

export async function buildTestApp(options: TestAppOptions): Promise<FastifyInstance> {
  // Each app its own data folder: emails land in its outbox/ (when SMTP_URL is not set).
  const dataDir = options.env?.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'asdas-accounts-'));
  const env: Record<string, string> = { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...(dataDir ? { DATA_DIR: dataDir } : {}), ...options.env };
  const shared = options.database && !options.openFromConfig ? options.database.db : undefined;
  if (options.openFromConfig && options.database) {
    if (!options.database.url) throw new Error('openFromConfig with a database needs a PostgreSQL test database');
    env.DATABASE_URL = options.database.url;
  }
  const config = loadConfig(env);
  const trustProxy = config.trustProxy;
  const app = Fastify({
    ...(options.logs ? { loggerInstance: collectingLogger(options.logs) } : { logger: false }),
    // As app.ts does: a hop count becomes a function.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: config.bodyLimitBytes,
  });
  if (dataDir) app.addHook('onClose', async () => rmSync(dataDir, { recursive: true, force: true }));
  try {
    await app.register(configPlugin, { config });
    await app.register(errors);
    await app.register(cookie);
    await app.register(health);
    await app.register(pageData);
    await app.register(formActions);
    await app.register(backgroundJobs);
    await app.register(mail, { retryDelaysMs: [], ...options.mail });
    await app.register(database, { ...(shared ? { db: shared } : {}), ...options.databaseOptions });
    await app.register(accounts, {
      passwordHasher: new PasswordHasher(testHashing),
      sweepIntervalMs: 0,
      ...options.accounts,
      rateLimits: { ...relaxedRateLimits, ...options.accounts?.rateLimits },
    });
    await app.register(authRoutes, { prefix: '/api/auth' });
    await app.register(accountLinks);
    await app.register(passwordReset);
    await app.register(emailVerification);
    await app.register(play, { secret: 'test-secret-that-is-at-least-32-characters-long', sweepIntervalMs: 0, now: options.accounts?.clock ?? (() => new Date()) });
    await app.register(accountSettings);
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
