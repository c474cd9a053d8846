// `npm run import-pglite -- [DATA_DIR]`: carries an earlier release's PGlite database over to
// SQLite in the same folder (decision 0033). A server refuses a PGlite folder until it is imported.
// PGlite itself is fetched from the npm registry into a temporary folder, as the site no longer
// depends on it; its files are kept, moved into `pglite-<time>/` beside the new database.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { link, mkdir, mkdtemp, readdir, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Kysely } from 'kysely';
import { lockFileName } from '../lib/db/data-folder-lock.ts';
import { migrateToLatest } from '../lib/db/migrate.ts';
import { migrations } from '../lib/db/migrations.ts';
import { isPGliteDataFolder, openSqlite, sqliteFileName } from '../lib/db/sqlite.ts';

/** The version the last PGlite release shipped with; it reads the folders that release wrote. */
const pgliteVersion = '0.5.16';
/** Parents before children, for the foreign keys. */
const tables = ['users', 'sessions', 'play_sessions', 'launch_tokens', 'self_exclusions', 'account_tokens'];

interface PGliteClient {
  query<T>(sql: string): Promise<{ rows: T[] }>;
  close(): Promise<void>;
}

class Refused extends Error {}

/** An SQLite file with its WAL and shared-memory files. */
async function removeFiles(file: string): Promise<void> {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) await rm(path, { force: true });
}

function fail(message: string): never {
  throw new Refused(message);
}

const usage = `npm run import-pglite -- [DATA_DIR]

  Carries an earlier release's PGlite database in DATA_DIR (default: $DATA_DIR, else ./data) over
  to SQLite in the same folder; PGlite's files are moved into pglite-<time>/ beside it.`;

async function main(): Promise<void> {
  const argument = process.argv[2];
  if (argument === '--help' || argument === '-h') return void console.log(usage);
  if (argument?.startsWith('-') || process.argv.length > 3) fail(usage);
  const dataDir = resolve(argument ?? process.env.DATA_DIR ?? 'data');
  if (!isPGliteDataFolder(dataDir)) fail(`${dataDir} holds no PGlite database (no PG_VERSION): nothing to import.`);
  const target = join(dataDir, sqliteFileName);
  if (existsSync(target)) fail(`${target} already exists: this folder was imported before.`);

  const scratch = await mkdtemp(join(tmpdir(), 'asdas-import-'));
  // Each import its own file: of two at once, the first to link its file in place wins.
  const partial = `${target}.importing-${process.pid}`;
  try {
    console.log(`Fetching PGlite ${pgliteVersion} from the npm registry...`);
    execFileSync(
      'npm',
      ['install', '--prefix', scratch, '--no-save', '--no-audit', '--no-fund', `@electric-sql/pglite@${pgliteVersion}`],
      { stdio: 'inherit' },
    );
    const entry = pathToFileURL(join(scratch, 'node_modules/@electric-sql/pglite/dist/index.js')).href;
    const { PGlite } = (await import(entry)) as { PGlite: { create(dir: string): Promise<PGliteClient> } };
    const pglite = await PGlite.create(dataDir);

    const applied = (await pglite.query<{ name: string }>('select name from kysely_migration order by name')).rows.map(
      (row) => row.name,
    );
    const unknown = applied.filter((name) => !Object.hasOwn(migrations, name));
    if (unknown.length > 0) fail(`The database has migrations this code does not know (${unknown.join(', ')}).`);

    await removeFiles(partial);
    const sqlite = openSqlite(partial);
    const db = new Kysely<Record<string, Record<string, unknown>>>({
      dialect: sqlite.dialect,
      plugins: sqlite.plugins,
    });
    await migrateToLatest(db);
    const counts: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (const table of tables) {
        const { rows } = await pglite.query<Record<string, unknown>>(`select * from ${table}`);
        // SQLite binds at most 32,766 values per statement: a few hundred rows at a time.
        for (let start = 0; start < rows.length; start += 200) {
          await trx
            .insertInto(table)
            .values(rows.slice(start, start + 200))
            .execute();
        }
        counts.push(`${table} ${rows.length}`);
      }
    });
    sqlite.release();
    await db.destroy();
    sqlite.close();
    await pglite.close();

    // The new database in place first: a server started after a crash here finds it and uses it.
    // A link, unlike a rename, never replaces a database another import put there.
    await link(partial, target).catch((error: unknown) =>
      (error as NodeJS.ErrnoException).code === 'EEXIST'
        ? fail(`${target} was imported meanwhile.`)
        : Promise.reject(error),
    );
    await unlink(partial);
    const backup = join(dataDir, `pglite-${new Date().toISOString().replaceAll(':', '-').slice(0, 19)}`);
    await mkdir(backup);
    const keep = new Set([lockFileName, sqliteFileName, `${sqliteFileName}-wal`, `${sqliteFileName}-shm`]);
    for (const name of await readdir(dataDir)) {
      if (!keep.has(name) && join(dataDir, name) !== backup) await rename(join(dataDir, name), join(backup, name));
    }
    console.log(`Imported into ${target}: ${counts.join(', ')}. PGlite's files are in ${backup}.`);
  } finally {
    await removeFiles(partial);
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof Refused || (error as Error).name === 'DataFolderInUseError' ? (error as Error).message : error,
  );
  process.exitCode = 1;
});
