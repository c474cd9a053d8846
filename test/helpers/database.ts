/**
 * A fresh, migrated database per test file.
 *
 * - SQLite (always): a file in a temporary folder, opened as the server opens it; migrating it
 *   takes milliseconds.
 * - PostgreSQL (when TEST_DATABASE_URL is set): a uniquely named schema per database, reached
 *   through `search_path` in the URL (`url`, so more app instances can share it), dropped at close.
 *
 *   for (const backend of testBackends()) {
 *     t.test(backend, async (t) => {
 *       const database = await createTestDatabase(backend);
 *       t.teardown(() => database.close());
 *       ...
 *     });
 *   }
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, type Migration, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { isSqlite } from '../../lib/db/dialect.ts';
import { migrateToLatest } from '../../lib/db/migrate.ts';
import { openSqlite, sqliteFileName } from '../../lib/db/sqlite.ts';
import type { Database } from '../../lib/db/types.ts';

export type TestBackend = 'sqlite' | 'postgres';

export interface TestDatabase {
  backend: TestBackend;
  db: Kysely<Database>;
  /** PostgreSQL only: a URL that reaches exactly this database (its schema), for DATABASE_URL. */
  url: string | undefined;
  /** PostgreSQL only: the schema that holds it. */
  schema: string | undefined;
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Default true. False leaves it empty (migration tests). */
  migrate?: boolean;
  migrations?: Record<string, Migration>;
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function testBackends(): TestBackend[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function postgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export async function createTestDatabase(
  backend: TestBackend,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const database = backend === 'sqlite' ? await createSqliteDatabase() : await createPostgresDatabase();
  if (options.migrate !== false) {
    try {
      await migrateToLatest(database.db, options.migrations ? { migrations: options.migrations } : {});
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

// ---------------------------------------------------------------- SQLite

/** A file of its own in a temporary folder, opened as the server opens it, removed at close. */
async function createSqliteDatabase(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'asdas-sqlite-'));
  const sqlite = openSqlite(join(dir, sqliteFileName));
  const db = new Kysely<Database>({ dialect: sqlite.dialect, plugins: sqlite.plugins });
  let closed = false;
  return {
    backend: 'sqlite',
    db,
    url: undefined,
    schema: undefined,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      sqlite.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- PostgreSQL

/** `base` with `search_path` set to `schema` for every connection (libpq `options`). */
export function urlWithSchema(base: string, schema: string): string {
  const options = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return `${base}${base.includes('?') ? '&' : '?'}${options}`;
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const base = postgresUrl();
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create schema "${schema}"`);
  } finally {
    await admin.end();
  }
  const url = urlWithSchema(base, schema);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 5 }) }),
  });
  let closed = false;
  return {
    backend: 'postgres',
    db,
    url,
    schema,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      try {
        await cleanup.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** Row counts of the account tables, to prove a request changed nothing. */
export async function countRows(
  db: Kysely<Database>,
): Promise<{ users: number; sessions: number; liveSessions: number }> {
  const result = await sql<{ users: number; sessions: number; live: number }>`
    select (select count(*) from users) as users,
           (select count(*) from sessions) as sessions,
           (select count(*) from sessions where revoked_at is null) as live`.execute(db);
  const row = result.rows[0];
  return { users: Number(row?.users), sessions: Number(row?.sessions), liveSessions: Number(row?.live) };
}

/** Every row of every table of the app's schema, as text, to prove a request changed nothing. */
export async function snapshotDatabase(db: Kysely<Database>): Promise<string> {
  const dump: Record<string, unknown[]> = {};
  for (const name of await tableNames(db)) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    dump[name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(dump);
}

/** The tables of the app's schema (SQLite's own and the migration lock aside), sorted. */
export async function tableNames(db: Kysely<any>): Promise<string[]> {
  const result = isSqlite(db)
    ? await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)
    : await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return result.rows.map((row) => row.name);
}
