import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
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
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...(log ? { log } : {}) }),
      backend: 'postgres',
      description: describeUrl(options.databaseUrl),
      pool,
    };
  }
  // Loaded only for the embedded database: a replica on PostgreSQL never holds PGlite's code.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([import('@electric-sql/pglite'), import('kysely-pglite-dialect')]);
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const startParams = [...PGlite.defaultStartParams, ...pgliteSettings.flatMap((setting) => ['-c', setting])];
  const pglite = await PGlite.create(dataDir, { startParams });
  return {
    db: new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...(log ? { log } : {}) }),
    backend: 'pglite',
    description: `pglite:${dataDir}`,
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
