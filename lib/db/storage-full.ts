/**
 * "The database has no room to write": SQLite's SQLITE_FULL (a full disk or DATA_DIR's volume) and
 * PostgreSQL's disk_full (53100). Reads go on; writes answer 503 STORAGE_FULL until space is freed.
 */
export function isStorageFull(error: unknown): boolean {
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

  /** A write went through: the time the spell started, when there was one. */
  wrote(): Date | undefined {
    const since = this.#fullSince;
    this.#fullSince = undefined;
    return since;
  }
}
