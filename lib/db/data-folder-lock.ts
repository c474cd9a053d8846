import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';

/**
 * Who holds the embedded database's folder. The lock itself is SQLite's, on the database file
 * (lib/db/sqlite.ts), let go by the kernel however the process ends (decision 0055).
 */
export const lockFileName = 'asdas-site.lock';

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

/** Once SQLite's lock is ours: names this process as the holder; the function returned clears it. */
export function recordHolder(dataDir: string): () => void {
  const path = join(dataDir, lockFileName);
  const holder: Required<LockHolder> = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  // Kept open, so the details are cleared even when the folder was removed meanwhile.
  const fd = openSync(path, 'w');
  writeSync(fd, `${JSON.stringify(holder)}\n`);
  return () => {
    ftruncateSync(fd, 0);
    closeSync(fd);
  };
}

/** How long a refused process waits for the holder's details (it writes them right after locking). */
const holderReadLimitMs = 1000;

/** The refusal, naming the holder; an empty file means it locked a moment ago, so read again for a while. */
export async function inUseError(dataDir: string): Promise<DataFolderInUseError> {
  const deadline = Date.now() + holderReadLimitMs;
  for (;;) {
    const holder = parseHolder(join(dataDir, lockFileName));
    if (holder || Date.now() >= deadline) return new DataFolderInUseError(dataDir, holder);
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
