import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import { lockDataFolder } from './data-folder-lock.ts';
import type { Database } from './types.ts';

export type DatabaseBackend = 'pglite' | 'postgres';

export interface OpenDatabaseOptions {
  /** Folder of the embedded database (PGlite); created on first start. */
  dataDir: string;
  /** A PostgreSQL server; when set, dataDir is not used. */
  databaseUrl?: string | undefined;
  /** Called when a pooled connection fails, idle or in use (the pool replaces it). */
  onPoolError?: (error: Error) => void;
  /** Called after every query with its duration (metrics). */
  onQuery?: (durationMs: number, ok: boolean) => void;
}

export interface OpenedDatabase {
  db: Kysely<Database>;
  backend: DatabaseBackend;
  /** Where the data lives, for the start-up log (never a password). */
  description: string;
  /** PostgreSQL's connection pool (its use is a metric); undefined for PGlite. */
  pool?: pg.Pool;
  /** Destroys `db`; for PGlite, then lets the data folder's lock go (idempotent). */
  close(): Promise<void>;
}

/**
 * The embedded database's memory (README, Sizing per replica). PostgreSQL's defaults assume a
 * server of its own (128 MB of shared buffers); this site's data is small, so PGlite runs with
 * 16 MB of shared buffers and modest per-query memory. (Its WebAssembly memory cannot start below
 * the 128 MiB the module declares: `initialMemory` smaller than that fails to instantiate.)
 */
const pgliteSettings = ['shared_buffers=16MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'temp_buffers=2MB', 'wal_buffers=1MB'];

/** Opens Kysely over PostgreSQL when a URL is given, otherwise over PGlite in `dataDir`. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const log = options.onQuery
    ? (event: LogEvent) => options.onQuery!(event.queryDurationMillis, event.level === 'query')
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
    // A connection that PostgreSQL ends while a query holds it (a restart, a failover) emits
    // 'error' on its client; unhandled, that would crash the process. The query itself fails and
    // is answered 503; the pool drops the client and connects anew.
    pool.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) });
    return { db, backend: 'postgres', description: describeUrl(options.databaseUrl), pool, close: () => db.destroy() };
  }
  // Loaded only for the embedded database: a replica on PostgreSQL never holds PGlite's code.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([import('@electric-sql/pglite'), import('kysely-pglite-dialect')]);
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  // One process per folder (docs/decisions/0025): a second one is refused here, before PGlite
  // touches a file, with a message naming the holder. Held until close() below.
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
        // Kysely only closes a driver it has used. The folder is let go only once PGlite is shut:
        // after a failed close the lock stays until the process ends, which lets it go anyway.
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
