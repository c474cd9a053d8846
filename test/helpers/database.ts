/**
 * A fresh, migrated database per test file, fast.
 *
 * - PGlite (always): initdb in WASM takes 3 to 8 s, so it runs once per machine: the first test
 *   file makes a template data folder (dumpDataDir) under test/.tmp and every database starts
 *   from it (loadDataDir, about 1 s) and is then migrated (milliseconds). Concurrent test files
 *   agree through a lock file; the template is written under a temporary name and renamed.
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
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type Migration, PostgresDialect, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrateToLatest } from '../../lib/db/migrate.ts';
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

export async function createTestDatabase(backend: TestBackend, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const database = backend === 'pglite' ? await createPGliteDatabase() : await createPostgresDatabase();
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

// ---------------------------------------------------------------- PGlite

const tmpDir = fileURLToPath(new URL('../.tmp/', import.meta.url));
// The template is keyed by PGlite's version: a new version may need a new data folder format.
const pgliteVersion = (
  JSON.parse(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const templatePath = `${tmpDir}pglite-template-${pgliteVersion}.tar`;
const lockPath = `${templatePath}.lock`;
let templateBytes: Promise<Uint8Array> | undefined;

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function buildTemplate(): Promise<void> {
  const pglite = await PGlite.create();
  try {
    const dump = await pglite.dumpDataDir('none');
    const partial = `${templatePath}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, templatePath);
  } finally {
    await pglite.close();
  }
}

/** The template's bytes, making the template first if no test file has yet. */
async function pgliteTemplate(): Promise<Uint8Array> {
  templateBytes ??= (async () => {
    await mkdir(tmpDir, { recursive: true });
    const deadline = Date.now() + 120_000;
    while (!(await exists(templatePath))) {
      let lock;
      try {
        lock = await open(lockPath, 'wx');
      } catch {
        // Someone else is making it; a lock older than a minute was left by a crashed run.
        const age = await stat(lockPath).then((info) => Date.now() - info.mtimeMs, () => 0);
        if (age > 60_000) await rm(lockPath, { force: true });
        if (Date.now() > deadline) throw new Error(`Timed out waiting for ${templatePath}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      try {
        if (!(await exists(templatePath))) await buildTemplate();
      } finally {
        await lock.close();
        await rm(lockPath, { force: true });
      }
    }
    return new Uint8Array(await readFile(templatePath));
  })();
  return templateBytes;
}

async function createPGliteDatabase(): Promise<TestDatabase> {
  const template = await pgliteTemplate();
  const pglite = await PGlite.create({ loadDataDir: new Blob([template as Uint8Array<ArrayBuffer>]) });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  let closed = false;
  return {
    backend: 'pglite',
    db,
    url: undefined,
    schema: undefined,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 5 }) }) });
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
export async function countRows(db: Kysely<Database>): Promise<{ users: number; sessions: number; liveSessions: number }> {
  const result = await sql<{ users: number; sessions: number; live: number }>`
    select (select count(*)::int from users) as users,
           (select count(*)::int from sessions) as sessions,
           (select count(*)::int from sessions where revoked_at is null) as live`.execute(db);
  const row = result.rows[0];
  return { users: Number(row?.users), sessions: Number(row?.sessions), liveSessions: Number(row?.live) };
}
