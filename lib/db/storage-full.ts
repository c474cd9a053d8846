import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Database } from './types.ts';

/**
 * "The database has no room to write": SQLite's SQLITE_FULL (a full disk or DATA_DIR's volume) and
 * PostgreSQL's disk_full (53100). Reads go on; writes answer 503 STORAGE_FULL until space is freed.
 */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  const candidate = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!candidate || typeof candidate !== 'object') return false;
  if (candidate.code === 'SQLITE_FULL' || candidate.code === '53100') return true;
  if (typeof candidate.message === 'string' && /database or disk is full/i.test(candidate.message)) return true;
  return candidate.cause !== undefined && candidate.cause !== error && isStorageFull(candidate.cause);
}

/** The engine that said so, for the log. */
export function storageEngineOf(error: unknown): 'sqlite' | 'postgresql' {
  return (error as { code?: unknown } | null)?.code === '53100' ? 'postgresql' : 'sqlite';
}

/** A write refused before it is tried, as the storage is known to be full (StorageState.refuseWhileFull). */
export class StorageFullError extends Error {
  override name = 'StorageFullError';
  constructor() {
    super('the database storage is full: the write was not tried');
  }
}

/**
 * Whether the database's storage is known to be full: set by a write that failed for lack of
 * space, cleared by the readiness probe's write once one succeeds (plugins/database.ts). Each
 * change is reported once, so the cause is logged when it starts and when it ends, not per request.
 */
export class StorageState {
  #fullSince: Date | undefined;

  get full(): boolean {
    return this.#fullSince !== undefined;
  }

  /** True when this failure starts a spell of full storage. */
  failed(): boolean {
    if (this.#fullSince) return false;
    this.#fullSince = new Date();
    return true;
  }

  /**
   * For any failed write (a request's, a background job's): true when it failed for want of space.
   * The cause is logged at error level when it starts a spell, at debug level after that.
   */
  report(error: unknown, log: FastifyBaseLogger): boolean {
    if (!isStorageFull(error)) return false;
    if (this.failed()) {
      log.error(
        { err: error, engine: storageEngineOf(error) },
        'the database cannot write: its storage is full; writes answer 503 STORAGE_FULL until space is freed',
      );
    } else log.debug({ err: error }, 'write refused: storage full');
    return true;
  }

  /**
   * For a write that runs after the answer (a password reset's link): refused up front while the
   * storage is known to be full, so the visitor is not told it is on its way.
   */
  refuseWhileFull(): void {
    if (this.full) throw new StorageFullError();
  }

  /** A write went through: the time the spell started, when there was one. */
  wrote(): Date | undefined {
    const since = this.#fullSince;
    this.#fullSince = undefined;
    return since;
  }
}

/**
 * One write that needs new room, to learn whether the storage has some again (plugins/database.ts).
 * On PostgreSQL an update, or an insert into a page with space left, fits where the table already
 * is: TRUNCATE gives the table a new, empty file, so the row needs a new page. On SQLite (WAL) the
 * write must commit: a change rolled back before commit writes nothing, so it succeeds on a full
 * disk; a committed one appends to the WAL, which needs room.
 */
export async function writeStorageProbe(db: Kysely<Database>): Promise<void> {
  const now = new Date();
  if (isSqlite(db)) {
    await db
      .insertInto('storage_probe')
      .values({ id: 1, written_at: now })
      .onConflict((conflict) => conflict.column('id').doUpdateSet({ written_at: now }))
      .execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`truncate table ${sql.table('storage_probe')}`.execute(trx);
    await trx.insertInto('storage_probe').values({ id: 1, written_at: now }).execute();
  });
}
