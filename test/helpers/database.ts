/**
 * A fresh, migrated database per test file, fast.
 *
 * - PGlite (always): initdb in WASM takes 3 to 8 s and migrating about 1 s, so both run once per
 *   machine: the first test file makes template data folders (dumpDataDir) under test/.tmp, one
 *   empty and one migrated (rebuilt when a migration changes), and every database starts from one
 *   (loadDataDir, under 1 s; the first PGlite of a process also pays about 1 s compiling WASM).
 *   Concurrent test files agree through a lock file; a template is written under a temporary
 *   name and renamed into place.
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
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type Migration, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrateToLatest } from '../../lib/db/migrate.ts';
import { migrations as appMigrations } from '../../lib/db/migrations.ts';
import type { Database } from '../../lib/db/types.ts';

export type TestBackend = 'pglite' | 'postgres';

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

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function testBackends(): TestBackend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export function postgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || undefined;
}

export async function createTestDatabase(
  backend: TestBackend,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  const { database, migrated } =
    backend === 'pglite'
      ? await createPGliteDatabase(options)
      : { database: await createPostgresDatabase(), migrated: false };
  if (options.migrate !== false && !migrated) {
    try {
      await migrateToLatest(database.db, options.migrations ? { migrations: options.migrations } : {});
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

// ---------------------------------------------------------------- PGlite

const tmpDir = fileURLToPath(new URL('../.tmp/', import.meta.url));
// Templates are keyed by PGlite's version (a new one may change the data folder format) and, for
// the migrated one, by the migrations' source, so changing a migration rebuilds it.
const pgliteVersion = (
  JSON.parse(
    readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  }
).version;
const templates = new Map<string, Promise<Uint8Array>>();

function fingerprint(migrations: Record<string, Migration>): string {
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${name}\0${migration.up.toString()}\0${migration.down?.toString() ?? ''}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The bytes of a template data folder, building it first (`build` returns a PGlite to dump) if
 * no test process has. One process builds, the others wait on the lock file.
 */
function template(name: string, build: () => Promise<PGlite>): Promise<Uint8Array> {
  let bytes = templates.get(name);
  if (!bytes) {
    bytes = (async () => {
      await mkdir(tmpDir, { recursive: true });
      const path = `${tmpDir}pglite-${pgliteVersion}-${name}.tar`;
      const lockPath = `${path}.lock`;
      const deadline = Date.now() + 120_000;
      while (!(await exists(path))) {
        let lock;
        try {
          lock = await open(lockPath, 'wx');
        } catch {
          // Another process is building it; a lock older than a minute was left by a crashed run.
          const age = await stat(lockPath).then(
            (info) => Date.now() - info.mtimeMs,
            () => 0,
          );
          if (age > 60_000) await rm(lockPath, { force: true });
          if (Date.now() > deadline) throw new Error(`Timed out waiting for ${path}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        try {
          if (!(await exists(path))) {
            const pglite = await build();
            try {
              const dump = await pglite.dumpDataDir('none');
              const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
              await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
              await rename(partial, path);
            } finally {
              await pglite.close();
            }
          }
        } finally {
          await lock.close();
          await rm(lockPath, { force: true });
        }
      }
      return new Uint8Array(await readFile(path));
    })();
    templates.set(name, bytes);
  }
  return bytes;
}

/** A fresh cluster after initdb, nothing else. */
const emptyTemplate = () => template('empty', () => PGlite.create());

/** A fresh cluster with the app's migrations applied. */
const migratedTemplate = () =>
  template(`migrated-${fingerprint(appMigrations)}`, async () => {
    const pglite = await PGlite.create({ loadDataDir: blob(await emptyTemplate()) });
    // Not through Kysely's destroy(), which would close the PGlite before it is dumped.
    await migrateToLatest(new Kysely<Database>({ dialect: new PGliteDialect(pglite) }));
    return pglite;
  });

function blob(bytes: Uint8Array): Blob {
  return new Blob([bytes as Uint8Array<ArrayBuffer>]);
}

async function createPGliteDatabase(
  options: TestDatabaseOptions,
): Promise<{ database: TestDatabase; migrated: boolean }> {
  const ready = options.migrate !== false && !options.migrations;
  const pglite = await PGlite.create({ loadDataDir: blob(await (ready ? migratedTemplate() : emptyTemplate())) });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  let closed = false;
  return {
    migrated: ready,
    database: {
      backend: 'pglite',
      db,
      url: undefined,
      schema: undefined,
      async close() {
        if (closed) return;
        closed = true;
        await db.destroy();
        // Kysely only closes a driver it has used: a database nobody queried is still open.
        if (!pglite.closed) await pglite.close();
      },
    },
  };
}

/**
 * Fills `dir` (missing or empty) with a migrated PGlite data folder, so a server started with
 * DATA_DIR=dir skips initdb (3 to 8 s, far more on a loaded machine). For tests that spawn the
 * real server.
 */
export async function seedPGliteDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const pglite = await PGlite.create({ dataDir: dir, loadDataDir: blob(await migratedTemplate()) });
  await pglite.close();
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
    select (select count(*)::int from users) as users,
           (select count(*)::int from sessions) as sessions,
           (select count(*)::int from sessions where revoked_at is null) as live`.execute(db);
  const row = result.rows[0];
  return { users: Number(row?.users), sessions: Number(row?.sessions), liveSessions: Number(row?.live) };
}

/** Every row of every table of the app's schema, as text, to prove a request changed nothing. */
export async function snapshotDatabase(db: Kysely<Database>): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const dump: Record<string, unknown[]> = {};
  for (const { table_name: name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    dump[name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(dump);
}
