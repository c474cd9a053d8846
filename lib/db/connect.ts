import { resolve } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { ConfigError } from '../config.ts';
import { prepareDataDir } from './data-dir.ts';
import { inUseError, recordHolder } from './data-folder-lock.ts';
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
  /** While tracing is on: given `pg` once loaded, before its first query. */
  instrumentPg?: (pg: object) => void;
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
    options.instrumentPg?.(postgres);
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
    const description = describeUrl(options.databaseUrl);
    // Before anything says "opened": the first connection tells what is wrong with the URL.
    try {
      await pool.query('select 1');
    } catch (error) {
      await pool.end().catch(() => {});
      throw new ConfigError(`DATABASE_URL (${description}) ${cannotConnect(options.databaseUrl, error)}`);
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    return { db, backend: 'postgres', description, pool, close: () => db.destroy() };
  }
  // Loaded only for the embedded database: a replica on PostgreSQL never holds SQLite's code.
  const { openSqlite, sqliteFileOf, SqliteBusyError } = await import('./sqlite.ts');
  const dataDir = resolve(options.dataDir);
  await prepareDataDir(dataDir);
  const file = sqliteFileOf(dataDir);
  let sqlite: OpenedSqlite;
  try {
    sqlite = openSqlite(file);
  } catch (error) {
    // One process per folder (decision 0055).
    throw error instanceof SqliteBusyError ? await inUseError(dataDir) : error;
  }
  const clearHolder = recordHolder(dataDir);
  const db = new Kysely<Database>({ dialect: sqlite.dialect, plugins: sqlite.plugins, ...(log ? { log } : {}) });
  let closing: Promise<void> | undefined;
  return {
    db,
    backend: 'sqlite',
    description: `sqlite:${file}`,
    close: () =>
      (closing ??= (async () => {
        sqlite.release();
        await db.destroy();
        // After a failed close the lock stays until exit.
        sqlite.close();
        clearHolder();
      })()),
  };
}

/** What PostgreSQL's first connection says, for a person. */
function cannotConnect(databaseUrl: string, error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const url = URL.canParse(databaseUrl) ? new URL(databaseUrl) : undefined;
  const user = decodeURIComponent(url?.username ?? '') || 'the default user';
  const database = decodeURIComponent(url?.pathname.slice(1) ?? '') || 'the default database';
  if (code === 'ECONNREFUSED') return 'refuses connections: is PostgreSQL running there, listening on that address?';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `names a host (${url?.hostname}) that does not resolve.`;
  if (code === '28P01' || code === '28000') return `refuses ${user}: its password is wrong, or it may not connect.`;
  if (code === '3D000') return `has no database ${database}: create it, or name another in the URL.`;
  if (/timeout/i.test(message ?? '')) return 'does not answer within 10 s: is the host reachable from here?';
  return `cannot be connected to (${code ?? message?.split('\n')[0] ?? 'unknown error'}).`;
}

function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `postgres://${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'postgres';
  }
}
