import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

/**
 * The embedded database's folder belongs to one process at a time, under a kernel lock
 * (`fcntl(F_OFD_SETLK)`) that goes when the process ends, however it ends (decision 0025). A server
 * also locks a byte of the database file itself, so a deleted lock file lets no second one in.
 */
export const lockFileName = 'asdas-site.lock';

export interface DataFolderLock {
  /** The lock file's path. */
  readonly path: string;
  /** Holds `file` too (the database, created if missing): refused while another process does. */
  hold(file: string): Promise<void>;
  /** Lets the folder go (idempotent). The database must be closed first. */
  release(): void;
}

export interface LockHolder {
  pid?: number;
  hostname?: string;
  since?: string;
}

export class DataFolderInUseError extends ConfigError {
  override name = 'DataFolderInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(
      `The data folder ${dataDir} is in use by another process (${describeHolder(holder)}); two processes on one embedded ` +
        'database lose data. Stop the other process before starting this one, or set DATABASE_URL to a PostgreSQL ' +
        'server to run several replicas.',
    );
  }
}

type TryLock = (fd: number, offset?: number, length?: number, options?: { shared?: boolean }) => boolean;

let tryLockFn: TryLock | undefined;

/** The native binding, loaded on first use: a replica on PostgreSQL never loads it. */
function nativeTryLock(): TryLock {
  if (!tryLockFn) {
    try {
      tryLockFn = (createRequire(import.meta.url)('fs-native-extensions') as { tryLock: TryLock }).tryLock;
    } catch (error) {
      throw new Error(
        `Cannot load file locking for the embedded database on ${process.platform}-${process.arch} ` +
          `(${(error as Error).message.split('\n')[0]}); set DATABASE_URL to a PostgreSQL server instead.`,
        { cause: error },
      );
    }
  }
  return tryLockFn;
}

/** How long a refused process waits for the holder's details (it writes them right after locking). */
const holderReadLimitMs = 1000;
/** Far from the bytes SQLite locks (from 1 GiB on): the two never meet. */
const databaseLockOffset = 2 ** 40;

/** Takes `dataDir`'s lock (the folder must exist) or throws DataFolderInUseError at once, never waiting. */
export async function lockDataFolder(dataDir: string): Promise<DataFolderLock> {
  const path = join(dataDir, lockFileName);
  // Not a FileHandle, which is closed (and the lock let go) when garbage collected. O_CLOEXEC
  // (libuv's default) keeps child processes from holding the lock after this one ends.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  } catch (error) {
    throw new ConfigError(
      `DATA_DIR=${dataDir}: its lock file ${path} cannot be opened (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      {
        cause: error,
      },
    );
  }
  let locked: boolean;
  try {
    locked = nativeTryLock()(fd);
  } catch (error) {
    closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(
      `DATA_DIR=${dataDir} cannot be locked (${code}): the embedded database needs a filesystem with file locks ` +
        '(a local disk or volume); set DATABASE_URL to a PostgreSQL server instead.',
      { cause: error },
    );
  }
  if (!locked) {
    closeSync(fd);
    throw new DataFolderInUseError(dataDir, await readHolder(path));
  }
  const holder: Required<LockHolder> = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  let released = false;
  const held: number[] = [];
  return {
    path,
    async hold(file) {
      const other = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
      if (nativeTryLock()(other, databaseLockOffset, 1)) return void held.push(other);
      closeSync(other);
      throw new DataFolderInUseError(dataDir, undefined);
    },
    release() {
      if (released) return;
      released = true;
      try {
        ftruncateSync(fd, 0);
      } finally {
        // A lock goes with the last descriptor of its open file description.
        for (const other of held) closeSync(other);
        closeSync(fd);
      }
    },
  };
}

/** The holder's details; an empty file means it locked a moment ago, so read again for a while. */
async function readHolder(path: string): Promise<LockHolder | undefined> {
  const deadline = Date.now() + holderReadLimitMs;
  for (;;) {
    const holder = parseHolder(path);
    if (holder || Date.now() >= deadline) return holder;
    await new Promise((done) => setTimeout(done, 25));
  }
}

function parseHolder(path: string): LockHolder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!value || typeof value !== 'object') return undefined;
    const { pid, hostname: host, since } = value as Record<string, unknown>;
    const holder: LockHolder = {};
    if (typeof pid === 'number' && Number.isInteger(pid)) holder.pid = pid;
    if (typeof host === 'string' && host) holder.hostname = host.slice(0, 255);
    if (typeof since === 'string' && since) holder.since = since.slice(0, 64);
    return holder.pid === undefined ? undefined : holder;
  } catch {
    return undefined;
  }
}

function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'pid unknown';
  return [
    `pid ${holder.pid}`,
    holder.hostname ? ` on host ${holder.hostname}` : '',
    holder.since ? ` since ${holder.since}` : '',
  ].join('');
}
