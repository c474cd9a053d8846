// `npm run bench`: load-tests the production build with autocannon, route by route.
//
//   npm run bench                                   # 50 connections, 2 s warm-up + 10 s per route
//   BENCH_DURATION=3 BENCH_WARMUP=1 npm run bench   # a quick run
//   npm run bench -- --build                        # rebuild first (otherwise only when dist/ is missing)
//
// Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS
// (default 50), BENCH_ROUTES (comma-separated names or paths to run only those).
// Results: a table on stdout, and JSON in bench/results/{timestamp}.json (git-ignored).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

interface BenchRoute {
  /** Short name for the table (defaults to the path). */
  name?: string;
  path: string;
  /** The status every answer should have (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** The constant-cost route the others are compared with. Exactly one. */
  baseline?: boolean;
  method?: 'GET' | 'POST';
  body?: string;
  /** Send the bench user's `Authorization: Bearer` token (registered before the run). */
  authenticated?: boolean;
  /** Override BENCH_CONNECTIONS: CPU-bound routes (argon2) only queue up behind 50 connections. */
  connections?: number;
}

/** Registered through the API before the run; login and `me` use it. */
const benchUser = { email: 'bench@example.com', password: 'bench passphrase 2026', displayName: 'Bench' };

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const page = { 'user-agent': browser, accept: 'text/html,application/xhtml+xml', 'accept-language': 'en' };
const json = { 'user-agent': browser, accept: 'application/json' };

/** Add a route here to benchmark it. */
const routes: BenchRoute[] = [
  { name: 'baseline /healthz', path: '/healthz', headers: json, baseline: true },
  { path: '/', headers: page },
  { path: '/th', headers: page },
  { path: '/asdas', headers: page },
  { path: '/asdas/rtp-explained', headers: page },
  { name: '404 page', path: '/no/such/page', status: 404, headers: page },
  { name: 'icons (local set)', path: '/api/_nuxt_icon/mdi.json?icons=home,account', headers: json },
  { path: '/asdas/_payload.json', headers: json },
  { name: 'article payload', path: '/asdas/rtp-explained/_payload.json', headers: json },
  { name: '/th/asdas/{slug}', path: '/th/asdas/rtp-explained', headers: page },
  { name: 'author page', path: '/author/nicha-srisuk', headers: page },
  { name: 'GET /api/auth/me', path: '/api/auth/me', headers: json, authenticated: true },
  {
    name: 'POST /api/auth/login',
    path: '/api/auth/login',
    method: 'POST',
    connections: 8,
    headers: { ...json, 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchUser.email, password: benchUser.password }),
  },
  // Each request records a play session and a launch token (two inserts in a transaction) and signs it.
  {
    name: 'POST /api/play',
    path: '/api/play',
    method: 'POST',
    authenticated: true,
    headers: { ...json, 'content-type': 'application/json' },
    body: JSON.stringify({ locale: 'en' }),
  },
];

const root = resolve(import.meta.dirname, '..');
const seconds = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of seconds`);
  return value;
};
const duration = seconds('BENCH_DURATION', 10);
const warmup = seconds('BENCH_WARMUP', 2);
const connections = Math.max(1, Math.trunc(Number(process.env.BENCH_CONNECTIONS ?? 50)) || 50);
const only = process.env.BENCH_ROUTES?.split(',').map((entry) => entry.trim()).filter(Boolean);

function buildIfNeeded() {
  const built = existsSync(join(root, 'dist/build.json')) && existsSync(join(root, 'dist/node/server.js'));
  if (built && !process.argv.includes('--build')) return;
  console.log(built ? 'Rebuilding (--build)...' : 'No production build in dist/: building...');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  base: string;
  /** What the server wrote (warnings and errors at LOG_LEVEL=warn). */
  output: string[];
  stop: () => Promise<void>;
}

async function startServer(): Promise<Server> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'asdas-bench-'));
  const child = spawn(process.execPath, [join(root, 'dist/node/server.js')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', DATA_DIR: dataDir,
      // The load comes from one address: lift the per-address login limit so login is measured, not 429s.
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      // No load balancer to drain for, and no start-up warning about the public origin.
      SHUTDOWN_DRAIN_MS: '0', PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Set, so the start does not warn about a random launch-token key.
      PLAY_SECRET: process.env.PLAY_SECRET ?? randomBytes(32).toString('base64url') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...String(chunk).split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base, output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  await stop();
  throw new Error(`The server did not become ready:\n${output.slice(-20).join('\n')}`);
}

interface RouteResult {
  name: string;
  path: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; average: number; max: number };
  throughputBytesPerSecond: number;
  requests: number;
  expectedStatus: number;
  unexpectedStatus: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  ratioToBaseline?: number;
}

/** Creates the bench user and returns its session token. */
async function registerBenchUser(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...benchUser, locale: 'en', acceptTerms: true, confirmAge: true }),
  });
  const token = /(?:^|,\s*)token=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (response.status !== 201 || !token) throw new Error(`could not register the bench user: ${response.status}`);
  return token;
}

async function measure(base: string, route: BenchRoute, token: string): Promise<RouteResult> {
  const options = {
    url: base + route.path,
    connections: route.connections ?? connections,
    method: route.method ?? 'GET',
    headers: { ...route.headers, ...(route.authenticated ? { authorization: `Bearer ${token}` } : {}) },
    ...(route.body ? { body: route.body } : {}),
  };
  // The first seconds fill caches and let V8 optimise; their figures are thrown away.
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const result = await autocannon({ ...options, duration });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count?: number }).count ?? 0]),
  );
  const expectedStatus = route.status ?? 200;
  const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  return {
    name: route.name ?? route.path,
    path: route.path,
    requestsPerSecond: result.requests.average,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, average: result.latency.average, max: result.latency.max },
    throughputBytesPerSecond: result.throughput.average,
    requests: result.requests.total,
    expectedStatus,
    unexpectedStatus: total - (statusCodes[String(expectedStatus)] ?? 0),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

function table(results: RouteResult[]): string {
  const rows = [
    ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs baseline'],
    ...results.map((r) => [
      r.expectedStatus === 200 ? r.name : `${r.name} (${r.expectedStatus})`,
      Math.round(r.requestsPerSecond).toLocaleString('en-US'),
      String(r.latencyMs.p50),
      String(r.latencyMs.p99),
      String(r.non2xx) + (r.unexpectedStatus > 0 ? ` (${r.unexpectedStatus} unexpected)` : ''),
      String(r.errors + r.timeouts),
      r.ratioToBaseline === undefined ? '' : `${(r.ratioToBaseline * 100).toFixed(1)}%`,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row, index) => {
      const line = row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
      return index === 0 ? `${line}\n${'-'.repeat(line.length)}` : line;
    })
    .join('\n');
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

async function main() {
  const startedAt = new Date();
  const selected = only ? routes.filter((route) => only.includes(route.path) || only.includes(route.name ?? '')) : routes;
  if (selected.length === 0) throw new Error(`BENCH_ROUTES matched no route: ${only?.join(', ')}`);
  buildIfNeeded();
  const build = JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { id: string };
  const cpus = os.cpus();
  const machine = {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemoryMiB: Math.round(os.totalmem() / 1048576),
    loadAverageAtStart: os.loadavg(),
  };
  console.log(`Machine: ${machine.cpuCount} x ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Load: ${connections} connections, ${warmup} s warm-up + ${duration} s per route (autocannon runs in this process)\n`);

  const server = await startServer();
  const stopOnSignal = () => void server.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const results: RouteResult[] = [];
  try {
    const token = await registerBenchUser(server.base);
    for (const route of selected) {
      // Fail fast on a route that does not answer as expected, rather than benchmarking errors.
      const probe = await fetch(server.base + route.path, {
        method: route.method ?? 'GET',
        headers: { ...route.headers, ...(route.authenticated ? { authorization: `Bearer ${token}` } : {}) },
        ...(route.body ? { body: route.body } : {}),
        redirect: 'manual',
      });
      await probe.arrayBuffer();
      if (probe.status !== (route.status ?? 200)) {
        console.warn(`warning: ${route.path} answered ${probe.status}, expected ${route.status ?? 200}`);
      }
      process.stdout.write(`  ${route.name ?? route.path} ...`);
      const result = await measure(server.base, route, token);
      results.push(result);
      process.stdout.write(` ${Math.round(result.requestsPerSecond)} req/s\n`);
    }
  } finally {
    await server.stop();
  }

  const baseline = results.find((result) => selected.find((route) => route.path === result.path)?.baseline);
  for (const result of results) {
    if (baseline && baseline.requestsPerSecond > 0) result.ratioToBaseline = result.requestsPerSecond / baseline.requestsPerSecond;
  }
  console.log(`\n${table(results)}\n`);
  const problems = server.output.filter((line) => /"level":(40|50|60)/.test(line) || !line.startsWith('{'));
  if (problems.length > 0) console.log(`The server logged ${problems.length} warning/error lines; the last:\n${problems.slice(-5).join('\n')}\n`);

  const report = {
    date: startedAt.toISOString(),
    commit: gitCommit(),
    buildId: build.id,
    machine,
    settings: { connections, warmupSeconds: warmup, durationSeconds: duration },
    baseline: baseline?.path,
    results,
    serverWarnings: problems.length,
  };
  const dir = join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Written to ${file.slice(root.length + 1)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
