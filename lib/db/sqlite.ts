import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import Database from 'libsql';
import {
  type DatabaseConnection,
  type Driver,
  type KyselyPlugin,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import { LRUCache } from 'lru-cache';
import { SqliteValuesPlugin } from './sqlite-values.ts';

/** The embedded database's file in DATA_DIR; `-wal` and `-shm` files sit beside it. */
export const sqliteFileName = 'asdas-site.sqlite';

/** A DATA_DIR holding an older release's PGlite database (decision 0033), left untouched. */
export class PGliteDataFolderError extends ConfigError {
  override name = 'PGliteDataFolderError';
  constructor(readonly dataDir: string) {
    super(
      `The data folder ${dataDir} holds the PGlite database of an earlier release, which this release no longer ` +
        'reads. Nothing in it was changed. Carry the accounts over with `npm run import-pglite -- ' +
        `${dataDir}` +
        '` (see docs/operations.md), or point DATA_DIR at an empty folder to start afresh.',
    );
  }
}

/** PostgreSQL's cluster layout, which PGlite left in DATA_DIR. */
export function isPGliteDataFolder(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/** The database file of `dataDir`, refusing a PGlite folder not yet imported. */
export function sqliteFileOf(dataDir: string): string {
  const file = join(dataDir, sqliteFileName);
  // An import moves PGlite's files away after putting the new file in place: the file wins.
  if (!existsSync(file) && isPGliteDataFolder(dataDir)) throw new PGliteDataFolderError(dataDir);
  return file;
}

/**
 * WAL and `synchronous=NORMAL`: a power cut may lose the last commits, never corrupt the file. The
 * file is this connection's alone (decision 0055): locked at once, never waiting for another.
 */
const pragmas = [
  'locking_mode = EXCLUSIVE',
  'busy_timeout = 0',
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'foreign_keys = ON',
];

/** Another process (or connection) holds the file. */
export class SqliteBusyError extends Error {}

export interface OpenedSqlite {
  dialect: SqliteDialect;
  plugins: KyselyPlugin[];
  /**
   * Moves the WAL into the file and lets the lock go: libsql's close keeps both while a prepared
   * statement lives, until garbage collection. Call it before `destroy()`.
   */
  release: () => void;
  /** After Kysely's `destroy()` (which closes only a driver it has used). */
  close: () => void;
}

/** SQLite rolls back by itself after a full disk: ROLLBACK only while a transaction is open, or it hides the cause. */
class KeepCauseDialect extends SqliteDialect {
  readonly #database: Database.Database;
  readonly #prepared: SqliteDatabase;
  constructor(database: Database.Database) {
    const prepared = preparedOnce(database);
    super({ database: prepared });
    this.#database = database;
    this.#prepared = prepared;
  }
  override createDriver(): Driver {
    const database = this.#database;
    return new (class extends SqliteDriver {
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (database.inTransaction) await super.rollbackTransaction(connection);
      }
    })({ database: this.#prepared });
  }
}

/**
 * Each statement prepared once (5 % of a signed-in page's CPU, decision 0037): Kysely's one connection
 * runs one query at a time, so a statement is never stepped by two at once.
 */
function preparedOnce(database: Database.Database): SqliteDatabase {
  const statements = new LRUCache<string, Database.Statement>({ max: 500 });
  return {
    close: () => database.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export function openSqlite(file: string): OpenedSqlite {
  const database = new Database(file);
  try {
    for (const pragma of pragmas) database.exec(`PRAGMA ${pragma}`);
    // The write lock now, not at the first write: held until the connection closes.
    database.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    database.close();
    throw (error as { code?: string }).code === 'SQLITE_BUSY' ? new SqliteBusyError(file, { cause: error }) : error;
  }
  return {
    dialect: new KeepCauseDialect(database),
    plugins: [new SqliteValuesPlugin()],
    release: () => {
      if (!database.open) return;
      // Out of WAL first: exclusive WAL cannot go back to normal locking, which lets go at the next read.
      try {
        database.exec('PRAGMA journal_mode = DELETE; PRAGMA locking_mode = NORMAL');
        database.prepare('SELECT count(*) FROM sqlite_master').get();
      } catch {
        // A file deleted or moved away (SQLITE_READONLY_DBMOVED): its lock guards nothing now.
      }
    },
    close: () => {
      if (database.open) database.close();
    },
  };
}
