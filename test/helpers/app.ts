/**
 * Every test app is the service as app.ts builds it (`buildApp`), from a test configuration,
 * leaving out only the parts a test does not exercise (`without`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp, type BuildAppOptions } from '../../app.ts';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import { type Config, loadConfig } from '../../lib/config.ts';
import { createLogger, type LoggerSettings } from '../../lib/logger.ts';
import type { AccountsPluginOptions } from '../../plugins/app/accounts.ts';
import type { DatabasePluginOptions } from '../../plugins/external/database.ts';
import type { MailPluginOptions } from '../../plugins/app/mail.ts';
import type { PlayPluginOptions } from '../../plugins/app/play.ts';
import type { RateLimitsPluginOptions } from '../../plugins/external/rate-limits.ts';
import { relaxedRateLimits } from './accounts.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/**
 * A configuration from `env` as a test wants it by default: silent, and no shedding on
 * event-loop delay (on a loaded machine the loop lags for reasons that have nothing to do with
 * the test; test/ops/overload.test.ts turns it on).
 */
export function testConfig(env: Record<string, string> = {}, overrides: { dev?: boolean } = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env }, overrides);
}

/** A logger whose lines land, parsed, in `logs`. */
export function collectingLogger(
  logs: Record<string, unknown>[],
  level = 'info',
  settings: LoggerSettings = {},
): Logger {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return createLogger(level, sink, settings);
}

export interface TestApp {
  app: FastifyInstance;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  close: () => Promise<void>;
}

/**
 * The whole service in production mode, on the build in dist/ (`npm test` builds first),
 * with its own empty data folder. Pass environment variables to change its configuration.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  {
    extraRoutes,
    databaseFromConfig = false,
    ...options
  }: Pick<BuildAppOptions, 'accounts' | 'rateLimits' | 'overload' | 'pageCache'> &
    Pick<TestAppOptions, 'extraRoutes'> & {
      /** The database plugin opens DATA_DIR itself, as in production (seeded, so no initdb). */
      databaseFromConfig?: boolean;
    } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-test-'));
  const logs: Record<string, unknown>[] = [];
  const config = testConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env });
  // A migrated embedded database of its own, or the one the app opens in DATA_DIR.
  const database = databaseFromConfig ? undefined : await createTestDatabase('sqlite');
  const app = await buildApp({
    config,
    logger: collectingLogger(logs, config.logLevel, { traceIds: config.tracing !== undefined }),
    ...(database ? { database: { db: database.db } } : {}),
    ...options,
  });
  extraRoutes?.(app);
  await app.ready();
  return {
    app,
    logs,
    close: async () => {
      await app.close();
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

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
  /** Limits other than the generous test ones, or a Redis key prefix of the test's own. */
  rateLimits?: RateLimitsPluginOptions;
  databaseOptions?: DatabasePluginOptions;
  play?: PlayPluginOptions;
  /** Registers more routes or hooks before the app is ready (e.g. a probe that shows `request.user`). */
  extraRoutes?: (app: FastifyInstance) => void;
  /** Shorter waits between email send attempts, by default none (tests must not wait). */
  mail?: MailPluginOptions;
  /** Collects the app's log lines (parsed) here; without it the app logs nothing. */
  logs?: Record<string, unknown>[];
}

export const testPlaySecret = 'test-secret-that-is-at-least-32-characters-long';

/**
 * The service without its pages (no build needed), for the API tests: cheap password hashing,
 * generous rate limits (only the rate-limit tests meet them), no timers, emails into the data
 * folder's outbox/ without waits.
 */
export async function buildTestApp(options: TestAppOptions): Promise<FastifyInstance> {
  // Each app its own data folder: emails land in its outbox/ (when SMTP_URL is not set).
  const dataDir = options.env?.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'asdas-accounts-'));
  const env: Record<string, string> = { NODE_ENV: 'test', ...(dataDir ? { DATA_DIR: dataDir } : {}), ...options.env };
  const shared = options.database && !options.openFromConfig ? options.database.db : undefined;
  if (options.openFromConfig && options.database) {
    if (!options.database.url) throw new Error('openFromConfig with a database needs a PostgreSQL test database');
    env.DATABASE_URL = options.database.url;
  }
  const config = testConfig(env);
  const appOptions: BuildAppOptions = {
    config,
    ...(options.logs
      ? {
          logger: collectingLogger(options.logs, options.env?.LOG_LEVEL ?? 'info', {
            traceIds: config.tracing !== undefined,
          }),
        }
      : {}),
    without: ['content', 'icons', 'builds', 'pages'],
    mail: { retryDelaysMs: [], ...options.mail },
    database: { ...(shared ? { db: shared } : {}), ...options.databaseOptions },
    accounts: { passwordHasher: new PasswordHasher(testHashing), sweepIntervalMs: 0, ...options.accounts },
    rateLimits: { ...options.rateLimits, limits: { ...relaxedRateLimits, ...options.rateLimits?.limits } },
    play: {
      secret: testPlaySecret,
      sweepIntervalMs: 0,
      now: options.accounts?.clock ?? (() => new Date()),
      ...options.play,
    },
  };
  let app: FastifyInstance;
  try {
    app = await buildApp(appOptions);
  } catch (error) {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // onClose hooks added here run before the plugins' own, so the emails still being written into
  // outbox/ are waited for first: removing the folder under them failed with ENOTEMPTY.
  if (dataDir) {
    app.addHook('onClose', async () => {
      await app.jobs?.settled();
      rmSync(dataDir, { recursive: true, force: true });
    });
  }
  try {
    options.extraRoutes?.(app);
    await app.ready();
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}

export const browserUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/** The page cache as an operator sees it on /metrics (entries, bytes), or undefined when it is off. */
export async function pageCacheGauges(app: FastifyInstance): Promise<{ entries: number; bytes: number } | undefined> {
  const value = async (name: string) => (await app.metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
  const [entries, bytes] = await Promise.all([value('page_cache_entries'), value('page_cache_bytes')]);
  return entries === undefined || bytes === undefined ? undefined : { entries, bytes };
}
