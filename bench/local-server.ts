import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { runtimeFlags, withRuntimeEnv } from '../lib/runtime-env.ts';
import { benchServerFile, bundleBenchServer } from './server-bundle.ts';

export interface LocalServer {
  child: ChildProcess;
  base: string;
  /** What the server wrote (warnings and errors at LOG_LEVEL=warn). */
  output: string[];
  /** Stops the server; returns the CPU profile's path when it was started with one. */
  stop: () => Promise<string | undefined>;
  /** From spawning the process to its first 200 from /readyz (polled every 10 ms). */
  readyMs: number;
  /** The process's resident memory now and at its peak (Linux /proc), in MiB. */
  memory: () => { rssMiB: number; peakMiB: number } | undefined;
}

/** The production build when it is missing (or `force`), then the bench's bundle of it (bench/server-bundle.ts). */
export async function buildIfNeeded(root: string, force: boolean) {
  const built = existsSync(join(root, 'dist/build.json')) && existsSync(join(root, 'dist/node/server.js'));
  if (!built || force) {
    console.log(built ? 'Rebuilding (--build)...' : 'No production build in dist/: building...');
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  await bundleBenchServer(root, force);
}

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

/**
 * Starts the production server on a free port with its own data folder: the bench's bundle of it
 * (dist/bench/server.js: the baseline page and the process figures) or with `site` the build's own
 * dist/node/server.js. The load generator's address is allowed past the rate limits, as an
 * operator load-testing login would set it. It starts with the image's process settings
 * (lib/runtime-env.ts: V8 heap sizing and flags, glibc arenas) unless the environment sets them:
 * `NODE_OPTIONS= npm run bench` measures Node's default heap sizing instead.
 */
export async function startLocalServer(
  root: string,
  {
    env = {},
    cpuProfileDir,
    dataDir: keptDataDir,
    waitFor = '/readyz',
    site = false,
  }: {
    env?: Record<string, string>;
    cpuProfileDir?: string | undefined;
    /** A data folder the caller owns (kept at stop); otherwise a new one, removed at stop. */
    dataDir?: string;
    /** The address whose first 200 ends the start (`/` for the first page). */
    waitFor?: string;
    /** The site's server without the bench's routes, as the image runs it. */
    site?: boolean;
  } = {},
): Promise<LocalServer> {
  const port = await freePort();
  const dataDir = keptDataDir ?? mkdtempSync(join(os.tmpdir(), 'asdas-bench-'));
  const spawnedAt = performance.now();
  const profileTmp = cpuProfileDir ? mkdtempSync(join(os.tmpdir(), 'asdas-bench-prof-')) : undefined;
  // BENCH_NODE_FLAGS: other V8 flags than the image's, to compare them (docs/sizing.md).
  const flags = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? runtimeFlags;
  const child = spawn(
    process.execPath,
    [
      ...flags,
      ...(profileTmp ? ['--cpu-prof', `--cpu-prof-dir=${profileTmp}`] : []),
      join(root, site ? 'dist/node/server.js' : benchServerFile),
    ],
    {
      cwd: root,
      env: {
        ...withRuntimeEnv(process.env),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        // No metrics listener unless a run asks for one (the default 9464 may be taken).
        METRICS_PORT: '0',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        // No load balancer to drain for, and no start-up warning about the public origin.
        SHUTDOWN_DRAIN_MS: '0',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        RATE_LIMIT_ALLOW_LIST: '127.0.0.1,::1',
        // Set, so the start does not warn about a random launch-token key.
        PLAY_SECRET: process.env.PLAY_SECRET ?? randomBytes(32).toString('base64url'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...String(chunk).split('\n').filter(Boolean));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
    }
    if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
    if (!profileTmp || !cpuProfileDir) return undefined;
    const written = readdirSync(profileTmp).find((name) => name.endsWith('.cpuprofile'));
    let saved: string | undefined;
    if (written) {
      mkdirSync(cpuProfileDir, { recursive: true });
      saved = join(cpuProfileDir, written);
      renameSync(join(profileTmp, written), saved);
    }
    rmSync(profileTmp, { recursive: true, force: true });
    return saved;
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}${waitFor}`, { headers: { 'accept-language': 'en' } })).ok) {
        const readyMs = performance.now() - spawnedAt;
        return { child, base, output, stop, readyMs, memory: () => processMemory(child.pid) };
      }
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 10));
  }
  await stop();
  throw new Error(`The server did not become ready:\n${output.slice(-20).join('\n')}`);
}

/** VmRSS and VmHWM (the peak) of a process, from /proc; undefined elsewhere than Linux. */
function processMemory(pid: number | undefined): { rssMiB: number; peakMiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rss = kib('VmRSS');
    const peak = kib('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rssMiB: rss / 1024, peakMiB: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}
