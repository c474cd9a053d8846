import fp from 'fastify-plugin';
import { type Kysely, type Migration, sql } from 'kysely';
import { Gauge } from 'prom-client';
import { openDatabase } from '../../lib/db/connect.ts';
import { migrateToLatest } from '../../lib/db/migrate.ts';
import { isStorageFull, writeStorageProbe } from '../../lib/db/storage-full.ts';
import type { Database } from '../../lib/db/types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The application database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL), migrated. */
    db: Kysely<Database>;
  }
}

export interface DatabasePluginOptions {
  /** An open database to use instead of opening one from the config (tests). Its owner closes it. */
  db?: Kysely<Database>;
  /** Migrations to run instead of lib/db/migrations.ts (tests). */
  migrations?: Record<string, Migration>;
}

const readinessTimeoutMs = 2000;
const storageProbeIntervalMs = 5000;

/** Migrations run under a lock and refuse a database newer than the code (decision 0001). */
export default fp<DatabasePluginOptions>(
  async (app, options) => {
    let db: Kysely<Database>;
    /** For SQLite, also lets its folder's lock go (decision 0025). */
    let close: (() => Promise<void>) | undefined;
    if (options.db) {
      db = options.db;
    } else {
      const backend = app.config.databaseUrl ? 'postgres' : 'sqlite';
      const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
      const tracing = app.hasDecorator('tracing') ? app.tracing : undefined;
      const opened = await openDatabase({
        dataDir: app.config.dataDir,
        databaseUrl: app.config.databaseUrl,
        onPoolError: (error) => app.log.warn({ err: error }, 'idle database connection failed'),
        // PostgreSQL's query spans are instrumentation-pg's; SQLite's ours, from Kysely's log.
        ...(tracing ? { instrumentPg: (pg: object) => tracing.instrumentPg(pg) } : {}),
        ...(metrics || tracing
          ? {
              onQuery: (ms: number, ok: boolean, text: string, error?: unknown) => {
                metrics?.dbQuery.observe({ backend, outcome: ok ? 'ok' : 'error' }, ms / 1000);
                if (backend === 'sqlite') tracing?.recordQuery({ text, durationMs: ms, ...(ok ? {} : { error }) });
              },
            }
          : {}),
      });
      const { pool } = opened;
      if (metrics && pool) {
        new Gauge({
          name: 'db_pool_connections',
          help: 'PostgreSQL connections: open (total), idle, and requests waiting for one.',
          labelNames: ['state'],
          registers: [metrics.registry],
          collect() {
            this.set({ state: 'total' }, pool.totalCount);
            this.set({ state: 'idle' }, pool.idleCount);
            this.set({ state: 'waiting' }, pool.waitingCount);
            this.set({ state: 'max' }, pool.options.max ?? 10);
          },
        });
      }
      app.log.info({ database: opened.description }, 'database opened');
      db = opened.db;
      close = opened.close;
    }

    try {
      await migrateToLatest(db, {
        ...(options.migrations ? { migrations: options.migrations } : {}),
        log: { info: (message) => app.log.info(message) },
      });
    } catch (error) {
      if (close) await close().catch(() => {});
      throw error;
    }

    app.decorate('db', db);
    // While the storage is full, a write is tried every few seconds and by readiness checks.
    const storage = app.storageState;
    let probing: Promise<boolean> | undefined;
    async function probe(): Promise<boolean> {
      try {
        await withTimeout(writeStorageProbe(db), readinessTimeoutMs);
      } catch (error) {
        if (isStorageFull(error)) return false;
        throw error;
      }
      const since = storage.wrote();
      if (since) app.log.info({ since }, 'the database writes again: its storage has room');
      return true;
    }
    async function writesAgain(): Promise<boolean> {
      if (!storage.full) return true;
      probing ??= probe().finally(() => (probing = undefined));
      return probing;
    }
    // A background write (a reset link, a sweep) that fails for want of space starts a spell too.
    app.jobs.reportFailures((error, log) => storage.report(error, log));
    app.jobs.every('storage probe', storageProbeIntervalMs, writesAgain);
    app.readinessChecks.set('database', async () => {
      await withTimeout(sql`select 1`.execute(db), readinessTimeoutMs);
      if (!(await writesAgain())) throw new Error('the database cannot write: its storage is full');
    });
    if (close) app.addHook('onClose', close);
  },
  { name: 'database', dependencies: ['config', 'health', 'errors', 'background-jobs'] },
);

async function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
