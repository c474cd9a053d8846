import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import type { AccountsPluginOptions } from '../../plugins/accounts.ts';
import { createTestDatabase } from './database.ts';

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
export async function startTestApp(env: Record<string, string> = {}, accounts?: AccountsPluginOptions): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-test-'));
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // No shedding on event-loop delay unless a test asks: on a loaded machine (CI, the suite's own
  // parallel files) the loop lags for reasons that have nothing to do with the test.
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'info', DATA_DIR: dataDir, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...env });
  // A migrated embedded database copied from a template: starting PGlite from scratch takes seconds.
  const database = await createTestDatabase('pglite');
  const app = await buildApp({
    config,
    logger: createLogger(config.logLevel, sink),
    database: { db: database.db },
    ...(accounts ? { accounts } : {}),
  });
  await app.ready();
  return {
    app,
    logs,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const browserUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
