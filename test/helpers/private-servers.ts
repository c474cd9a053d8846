/**
 * Servers a fault test owns: a PostgreSQL cluster made with the machine's initdb/pg_ctl and a
 * redis-server, each on its own free port and data folder, never the shared ones other test
 * files use, so the test may stop, kill and restart them. `findPostgres()` / `findRedis()` say
 * why not when the binaries are missing (the test then skips with that reason).
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

// ---------------------------------------------------------------- PostgreSQL

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** initdb refuses to run as root: the account to run the cluster as then. */
  user: { uid: number; gid: number } | undefined;
}

/** The newest PostgreSQL under /usr/lib/postgresql/*, or why there is none to use. */
export function findPostgres(): PostgresBinaries | string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const bin = versions
    .map((version) => join(root, version, 'bin'))
    .find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!bin) return 'no initdb/pg_ctl under /usr/lib/postgresql/*/bin (Debian package postgresql)';
  let user: PostgresBinaries['user'];
  if (userInfo().uid === 0) {
    const entry = execFileSyncSafe('id', ['-u', 'postgres']);
    const group = execFileSyncSafe('id', ['-g', 'postgres']);
    if (!entry || !group) return 'running as root and there is no postgres user to run initdb as';
    user = { uid: Number(entry), gid: Number(group) };
  }
  return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl'), user };
}

function execFileSyncSafe(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

export interface PrivatePostgres {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster for good and deletes its folder. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(binaries: PostgresBinaries): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const options = binaries.user ? { uid: binaries.user.uid, gid: binaries.user.gid } : {};
  if (binaries.user) chownSync(dir, binaries.user.uid, binaries.user.gid);
  await run(binaries.initdb, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], {
    ...options,
    cwd: dir,
  });
  const pgCtl = (...args: string[]) => run(binaries.pgCtl, ['-D', data, ...args], { ...options, cwd: dir });
  const start = async () => {
    // -w: returns once the server accepts connections. Socket in the folder: no shared /var/run.
    await pgCtl(
      '-w',
      '-t',
      '60',
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`,
      'start',
    );
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    // Fast: rolls back what is running and closes every connection, as a restart by an operator does.
    stop: async () => {
      await pgCtl('-w', '-t', '60', '-m', 'fast', 'stop');
    },
    destroy: async () => {
      await pgCtl('-w', '-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- Redis

export function findRedis(): string {
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server']) {
    if (existsSync(candidate)) return candidate;
  }
  return '';
}

export interface PrivateRedis {
  port: number;
  url: string;
  /** Kills it (SIGKILL: a crash, nothing saved) and waits for the process to be gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(binary: string): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const process = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = process;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      process.stdout.on('data', (chunk) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) resolve();
      });
      process.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
    });
  };
  const kill = async () => {
    const process = child;
    if (!process || process.exitCode !== null || process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => process.once('exit', () => resolve()));
    process.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    destroy: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
