import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
import type { Database } from './types.ts';

/** No room to write: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100). Reads go on. */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFullError) return true;
  const candidate = error as { code?: unknown; message?: unknown; cause?: unknown } | null;
  if (!candidate || typeof candidate !== 'object') return false;
  if (candidate.code === 'SQLITE_FULL' || candidate.code === '53100') return true;
  if (typeof candidate.message === 'string' && /database or disk is full/i.test(candidate.message)) return true;
  return candidate.cause !== undefined && candidate.cause !== error && isStorageFull(candidate.cause);
}

function storageEngineOf(error: unknown): 'sqlite' | 'postgresql' {
  return (error as { code?: unknown } | null)?.code === '53100' ? 'postgresql' : 'sqlite';
}

/** A write refused before it is tried, as the storage is known to be full (StorageState.refuseWhileFull). */
export class StorageFullError extends Error {
  override name = 'StorageFullError';
  constructor() {
    super('the database storage is full: the write was not tried');
  }
}

/** Whether the storage is full: set by a failed write, cleared by the probe's; logged once a spell. */
export class StorageState {
  #fullSince: Date | undefined;

  get full(): boolean {
    return this.#fullSince !== undefined;
  }

  #failed(): boolean {
    if (this.#fullSince) return false;
    this.#fullSince = new Date();
    return true;
  }

  /** For any failed write: true when it failed for want of space (logged as said above). */
  report(error: unknown, log: FastifyBaseLogger): boolean {
    if (!isStorageFull(error)) return false;
    if (this.#failed()) {
      log.error(
        { err: error, engine: storageEngineOf(error) },
        'the database cannot write: its storage is full; writes answer 503 STORAGE_FULL until space is freed',
      );
    } else log.debug({ err: error }, 'write refused: storage full');
    return true;
  }

  /** For a write made after the answer (an emailed link): refused up front while full. */
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
 * A write that needs new room. PostgreSQL fits an update into a page it has: TRUNCATE gives the
 * table a new file, so the row needs a new page. SQLite's must commit, appending to the WAL.
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
