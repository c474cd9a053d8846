import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded database's folder belongs to one process at a time (docs/decisions/0025): two
 * PGlite instances on one folder each keep their own view of it and overwrite each other's
 * writes, silently. The lock is the kernel's: an exclusive open-file-description lock
 * (`fcntl(F_OFD_SETLK)`, through fs-native-extensions) on `asdas-site.lock` in the folder.
 *
 * - The kernel lets it go when the process ends, however it ends (SIGKILL, OOM): no staleness to
 *   judge, no wait on restart, no pid or hostname to trust. Pid 1 in one container and pid 1 in
 *   another on the same volume are different holders to the kernel, as they are.
 * - Taking it is one atomic call: of two processes that try at once, exactly one gets it.
 * - The file only carries who holds it (pid, host, since when) for the refusal's message. It is
 *   never deleted: a process that opened the old file could lock it while another locks a new one.
 */
export const lockFileName = 'asdas-site.lock';

export interface DataFolderLock {
  /** The lock file's path. */
  readonly path: string;
  /** Lets the folder go (idempotent). The database must be closed first. */
  release(): void;
}

export interface LockHolder {
  pid?: number;
  hostname?: string;
  since?: string;
}

/** Another process holds the folder: its message names the folder, the holder and what to do. */
export class DataFolderInUseError extends Error {
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

/**
 * Takes `dataDir`'s lock (the folder must exist) or throws DataFolderInUseError naming the holder.
 * Never waits for the lock: a second process must refuse at once, not queue behind the first.
 */
export async function lockDataFolder(dataDir: string): Promise<DataFolderLock> {
  const path = join(dataDir, lockFileName);
  // A plain descriptor, not a FileHandle: a FileHandle that is garbage collected is closed, and
  // closing the descriptor would let the lock go. O_CLOEXEC (libuv's default) keeps it out of
  // child processes, which could otherwise hold the lock after this process ends.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  } catch (error) {
    throw new Error(`Cannot open the data folder's lock file ${path}: ${(error as Error).message}`, { cause: error });
  }
  let locked: boolean;
  try {
    locked = nativeTryLock()(fd);
  } catch (error) {
    closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new Error(
      `Cannot lock the data folder ${dataDir} (${code}): the embedded database needs a filesystem with file locks ` +
        '(a local disk or volume); set DATABASE_URL to a PostgreSQL server instead.',
      { cause: error },
    );
  }
  if (!locked) {
    closeSync(fd);
    throw new DataFolderInUseError(dataDir, await readHolder(path));
  }
  // Ours now: say who holds it, for the message of any process refused later.
  const holder: Required<LockHolder> = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      try {
        ftruncateSync(fd, 0);
      } finally {
        closeSync(fd); // the lock goes with the last descriptor of its open file description
      }
    },
  };
}

/**
 * The holder's details, as it wrote them. It writes them right after taking the lock, so an
 * empty file means "a moment ago": read again for up to a second before giving up on them.
 */
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
  return [`pid ${holder.pid}`, holder.hostname ? ` on host ${holder.hostname}` : '', holder.since ? ` since ${holder.since}` : ''].join('');
}
