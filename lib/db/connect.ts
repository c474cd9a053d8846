import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { lockDataFolder } from './data-folder-lock.ts';
import type { OpenedSqlite } from './sqlite.ts';
import type { Database } from './types.ts';

export type DatabaseBackend = 'sqlite' | 'postgres';

export interface OpenDatabaseOptions {
  /** The embedded database's folder, created on first start; not used with `databaseUrl`. */
  dataDir: string;
  databaseUrl?: string | undefined;
  /** A pooled connection failed, idle or in use (the pool replaces it). */
  onPoolError?: (error: Error) => void;
  /** After each query: its SQL has placeholders (`$1`, `?`), never the values. */
  onQuery?: (durationMs: number, ok: boolean, sql: string, error?: unknown) => void;
}

export interface OpenedDatabase {
  db: Kysely<Database>;
  backend: DatabaseBackend;
  /** For the start-up log: never a password. */
  description: string;
  pool?: pg.Pool;
  /** For SQLite, also lets the data folder's lock go. Idempotent. */
  close: () => Promise<void>;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const log = options.onQuery
    ? (event: LogEvent) =>
        options.onQuery!(
          event.queryDurationMillis,
          event.level === 'query',
          event.query.sql,
          event.level === 'error' ? event.error : undefined,
        )
    : undefined;
  if (options.databaseUrl) {
    // Loaded only for PostgreSQL: a replica on the embedded database never holds pg's code.
    const { default: postgres } = await import('pg');
    const pool = new postgres.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: 'asdas-site',
    });
    pool.on('error', (error) => options.onPoolError?.(error));
    // A connection PostgreSQL ends mid-query emits 'error' on its client, which would crash the
    // process unhandled; the query fails on its own (503).
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    return { db, backend: 'postgres', description: describeUrl(options.databaseUrl), pool, close: () => db.destroy() };
  }
  // Loaded only for the embedded database: a replica on PostgreSQL never holds SQLite's code.
  const { openSqlite, sqliteFileOf } = await import('./sqlite.ts');
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  // One process per folder (decision 0025), refused before a file is touched.
  const lock = await lockDataFolder(dataDir);
  let sqlite: OpenedSqlite;
  let file: string;
  try {
    file = sqliteFileOf(dataDir);
    await lock.hold(file);
    sqlite = openSqlite(file);
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: sqlite.dialect, plugins: sqlite.plugins, ...(log ? { log } : {}) });
  let closing: Promise<void> | undefined;
  return {
    db,
    backend: 'sqlite',
    description: `sqlite:${file}`,
    close: () =>
      (closing ??= (async () => {
        sqlite.checkpoint();
        await db.destroy();
        // After a failed close the lock stays until exit.
        sqlite.close();
        lock.release();
      })()),
  };
}

function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `postgres://${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'postgres';
  }
}
