import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataFolder } from './data-folder-lock.ts';
import type { Database } from './types.ts';

export type DatabaseBackend = 'pglite' | 'postgres';

export interface OpenDatabaseOptions {
  /** PGlite's folder, created on first start; not used with `databaseUrl`. */
  dataDir: string;
  databaseUrl?: string | undefined;
  /** A pooled connection failed, idle or in use (the pool replaces it). */
  onPoolError?: (error: Error) => void;
  /** After each query: its SQL has placeholders (`$1`), never the values. */
  onQuery?: (durationMs: number, ok: boolean, sql: string, error?: unknown) => void;
}

export interface OpenedDatabase {
  db: Kysely<Database>;
  backend: DatabaseBackend;
  /** For the start-up log: never a password. */
  description: string;
  pool?: pg.Pool;
  /** For PGlite, also lets the data folder's lock go. Idempotent. */
  close: () => Promise<void>;
}

/**
 * PostgreSQL's defaults assume a server of its own; this site's data is small (figures: decision
 * 0001). PGlite's `initialMemory` cannot go below the module's 128 MiB: it fails to instantiate.
 */
const pgliteSettings = [
  'shared_buffers=16MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
  'wal_buffers=1MB',
];

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
    const pool = new pg.Pool({
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
  // Loaded only for the embedded database: a replica on PostgreSQL never holds PGlite's code.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ]);
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  // One process per folder (decision 0025), refused before PGlite touches a file.
  const lock = await lockDataFolder(dataDir);
  let pglite: InstanceType<typeof PGlite>;
  try {
    const startParams = [...PGlite.defaultStartParams, ...pgliteSettings.flatMap((setting) => ['-c', setting])];
    pglite = await PGlite.create(dataDir, { startParams });
  } catch (error) {
    lock.release();
    throw error;
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...(log ? { log } : {}) });
  let closing: Promise<void> | undefined;
  return {
    db,
    backend: 'pglite',
    description: `pglite:${dataDir}`,
    close: () =>
      (closing ??= (async () => {
        await db.destroy();
        // Kysely only closes a driver it has used. After a failed close the lock stays until exit.
        if (!pglite.closed) await pglite.close();
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
