// `npm run bench`: load-tests the site with autocannon, route by route (or a scenario, or a soak),
// and compares every route with a constant page served by the same server in the same run.
// `npm run bench -- --help` lists the options; README.md (Benchmark) explains the figures.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { Request } from 'autocannon';
import { join, relative, resolve } from 'node:path';
import { buildIfNeeded, startLocalServer } from './local-server.ts';
import { overloadRun, overloadTable, type OverloadResult } from './overload.ts';
import { progress, readProcess, runLoad, type LoadResult, type LoadSpec } from './load.ts';
import { parseOptions, usage, type BenchOptions } from './options.ts';
import { compareToBaseline, table } from './report.ts';
import {
  baselinePath,
  benchUser,
  jsonBodyHeaders,
  loginRequest,
  readerSteps,
  singleRoutes,
  soakSteps,
  type BenchRoute,
} from './routes.ts';

const root = resolve(import.meta.dirname, '..');

interface Target {
  base: string;
  /** Local mode: which page cache setting this server runs with. */
  cache: 'on' | 'off' | 'deployment';
  output: string[];
  stop: () => Promise<string | undefined>;
}

interface RunReport {
  cache: Target['cache'];
  results: LoadResult[];
  registrations?: { users: number; meanMs: number };
  overload?: OverloadResult[];
  soak?: SoakSample[];
  cpuProfile?: string;
  serverWarnings: number;
}

/**
 * Local runs other than the overload scenario measure what each request costs, so overload
 * shedding is off (unless the environment sets it): on a busy machine it would answer part of the
 * load with cheap 503s, and the CPU per request and req/s would mix the two.
 */
function measuringEnv(): Record<string, string> {
  const off = { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_HEAP_BYTES: '0', OVERLOAD_MAX_IN_FLIGHT: '0' };
  return Object.fromEntries(Object.entries(off).filter(([name]) => process.env[name] === undefined));
}

interface SoakSample {
  seconds: number;
  rssMiB: number;
  heapUsedMiB: number;
  requests: number;
}

async function register(base: string, user: { email: string; password: string; displayName: string }): Promise<string> {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: jsonBodyHeaders,
    body: JSON.stringify({ ...user, locale: 'en', acceptTerms: true, confirmAge: true }),
  });
  await response.arrayBuffer();
  const token = /(?:^|,\s*)token=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (response.status !== 201 || !token) {
    const hint = response.status === 429 ? ' (rate limited: add this address to RATE_LIMIT_ALLOW_LIST on the server)' : '';
    throw new Error(`could not register ${user.email}: HTTP ${response.status}${hint}`);
  }
  return token;
}

function tokenFromSetCookie(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  return /(?:^|,\s*)token=([^;]+)/.exec(value)?.[1];
}

function specFor(target: Target, options: BenchOptions, token: string, route: BenchRoute): LoadSpec {
  const name = route.name ?? route.path;
  return {
    name,
    base: target.base,
    requests: [route],
    connections: route.connections ?? options.connections,
    duration: options.duration,
    warmup: options.warmup,
    expectedStatus: route.status ?? 200,
    encoding: options.encoding,
    token,
    onTick: progress(name, options.duration),
  };
}

async function probe(target: Target, route: BenchRoute, token: string, encoding: string): Promise<number> {
  const response = await fetch(target.base + route.path, {
    method: route.method ?? 'GET',
    headers: {
      ...route.headers,
      ...(encoding ? { 'accept-encoding': encoding } : {}),
      ...(route.authenticated ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(route.body ? { body: route.body } : {}),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

function done(result: LoadResult) {
  const cpu = result.cpuMsPerRequest === undefined ? '' : `, ${result.cpuMsPerRequest.toFixed(3)} CPU ms/req`;
  const line = `  ${result.name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms${cpu}`;
  if (process.stdout.isTTY) process.stdout.write(`\r${line}\u001b[K\n`);
  else console.log(line);
}

async function runRoutes(target: Target, options: BenchOptions, token: string, user: { email: string; password: string }) {
  let routes = singleRoutes(user);
  const baselineAnswers = (await probe(target, routes[0]!, token, options.encoding)) === 200;
  if (!baselineAnswers) {
    console.log(`  (no ${baselinePath} on this server: start it with BENCH_BASELINE=1 for ratios and CPU figures)`);
    routes = routes.filter((route) => !route.baseline);
  }
  if (options.routes) {
    const wanted = options.routes;
    routes = routes.filter((route) => route.baseline || wanted.includes(route.path) || wanted.includes(route.name ?? ''));
    if (routes.every((route) => route.baseline)) throw new Error(`--routes matched no route: ${wanted.join(', ')}`);
  }
  const results: LoadResult[] = [];
  for (const route of routes) {
    const status = await probe(target, route, token, options.encoding);
    if (status !== (route.status ?? 200)) console.warn(`  warning: ${route.path} answered ${status}, expected ${route.status ?? 200}`);
    const result = await runLoad(specFor(target, options, token, route));
    done(result);
    results.push(result);
  }
  compareToBaseline(results, baselineAnswers ? results[0] : undefined);
  return results;
}

async function baselineResult(target: Target, options: BenchOptions, token: string): Promise<LoadResult | undefined> {
  const [baseline] = singleRoutes({ email: '', password: '' });
  if ((await probe(target, baseline!, token, options.encoding)) !== 200) return undefined;
  const result = await runLoad(specFor(target, options, token, baseline!));
  done(result);
  return result;
}

async function runReader(target: Target, options: BenchOptions, token: string) {
  const baseline = await baselineResult(target, options, token);
  const result = await runLoad({
    name: 'reader (6 steps)',
    base: target.base,
    requests: readerSteps,
    connections: options.connections,
    duration: options.duration,
    warmup: options.warmup,
    expectedStatus: 200,
    encoding: options.encoding,
    token,
    onTick: progress('reader', options.duration),
  });
  done(result);
  const results = baseline ? [baseline, result] : [result];
  compareToBaseline(results, baseline);
  return results;
}

/** Virtual users register (a few at a time: argon2 is CPU-bound), then each cycle logs in, asks `me`, plays. */
async function runAccount(target: Target, options: BenchOptions, token: string, run: string) {
  const connections = Math.min(options.connections, 8);
  const users: { email: string; password: string; displayName: string }[] = [];
  const started = Date.now();
  for (let index = 0; index < connections; index += 4) {
    const batch = Array.from({ length: Math.min(4, connections - index) }, (_, offset) => benchUser(`${run}-${index + offset}`));
    await Promise.all(batch.map((user) => register(target.base, user)));
    users.push(...batch);
  }
  const registrations = { users: users.length, meanMs: (Date.now() - started) / users.length };
  console.log(`  registered ${users.length} virtual users (${Math.round(registrations.meanMs)} ms each, in fours)`);
  const baseline = await baselineResult(target, options, token);
  let next = 0;
  type Context = { token?: string };
  const bearer = (request: Request, context: Context) => ({
    ...request,
    headers: { ...request.headers, authorization: `Bearer ${context.token ?? ''}` },
  });
  const result = await runLoad({
    name: 'account (login, me, play)',
    base: target.base,
    requests: [
      loginRequest(users[0]!),
      { path: '/api/auth/me', headers: jsonBodyHeaders },
      { path: '/api/play', method: 'POST', headers: jsonBodyHeaders, body: JSON.stringify({ locale: 'en' }) },
    ],
    hooks: {
      0: {
        setupRequest: (request) => {
          const user = users[next++ % users.length]!;
          return { ...request, body: JSON.stringify({ email: user.email, password: user.password }) };
        },
        onResponse: (_status, _body, context, headers) => {
          (context as Context).token = tokenFromSetCookie(headers?.['set-cookie'] as string | string[] | undefined);
        },
      },
      1: { setupRequest: (request, context) => bearer(request, context as Context) },
      2: { setupRequest: (request, context) => bearer(request, context as Context) },
    },
    connections,
    duration: options.duration,
    warmup: options.warmup,
    expectedStatus: 200,
    encoding: options.encoding,
    token,
    onTick: progress('account', options.duration),
  });
  done(result);
  const results = baseline ? [baseline, result] : [result];
  compareToBaseline(results, baseline);
  return { results, registrations };
}

/** Mixed load for `--soak` seconds; the server's RSS every 30 s (and at the end). */
async function runSoak(target: Target, options: BenchOptions, token: string, user: { email: string; password: string }) {
  const samples: SoakSample[] = [];
  const first = await readProcess(target.base);
  if (!first) console.log('  (the server does not report its memory: start it with BENCH_BASELINE=1 for RSS figures)');
  const sample = async (seconds: number, requests: number) => {
    const figures = await readProcess(target.base);
    if (!figures) return;
    const entry = {
      seconds,
      rssMiB: Math.round((figures.memoryBytes.rss / 1048576) * 10) / 10,
      heapUsedMiB: Math.round((figures.memoryBytes.heapUsed / 1048576) * 10) / 10,
      requests,
    };
    samples.push(entry);
    const line = `  ${String(seconds).padStart(5)} s  RSS ${entry.rssMiB.toFixed(1)} MiB  heap used ${entry.heapUsedMiB.toFixed(1)} MiB  ${requests} requests`;
    if (process.stdout.isTTY) process.stdout.write(`\r${line}\u001b[K\n`);
    else console.log(line);
  };
  if (first) await sample(0, 0);
  let lastCount = 0;
  const result = await runLoad({
    name: `soak (${options.soak} s mixed)`,
    base: target.base,
    requests: soakSteps(user),
    connections: options.connections,
    duration: options.soak,
    warmup: 0,
    expectedStatus: 200,
    encoding: options.encoding,
    token,
    onTick: (elapsed, count) => {
      lastCount = count;
      if (elapsed % 30 === 0 && elapsed < options.soak) void sample(elapsed, count);
    },
  });
  await sample(options.soak, lastCount || result.requests);
  done(result);
  if (samples.length >= 3) {
    const later = samples.filter((entry) => entry.seconds >= Math.min(60, options.soak / 2));
    const low = Math.min(...later.map((entry) => entry.rssMiB));
    const high = Math.max(...later.map((entry) => entry.rssMiB));
    console.log(`  RSS after the first minute: ${low.toFixed(1)} to ${high.toFixed(1)} MiB (last ${samples.at(-1)!.rssMiB.toFixed(1)} MiB)`);
  }
  return { results: [result], samples };
}

/**
 * `--scenario overload`: the target as configured (shedding on by default), then, on the local
 * build, the same load on a second server with shedding off (OVERLOAD_* = 0) to compare.
 */
async function runOverload(target: Target, options: BenchOptions, token: string): Promise<OverloadResult[]> {
  const run = (name: string, base: string, userToken: string) =>
    overloadRun({ name, base, token: userToken, connections: options.connections, duration: options.duration, warmup: options.warmup, encoding: options.encoding });
  const results = [await run(options.url ? 'deployment' : 'shedding on (defaults)', target.base, token)];
  console.log(`  ${results[0]!.name}: ${results[0]!.served.count} served, ${results[0]!.shed.count} shed`);
  if (!options.url) {
    const off = await startLocalServer(root, { env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_HEAP_BYTES: '0', OVERLOAD_MAX_IN_FLIGHT: '0' } });
    try {
      const offToken = await register(off.base, benchUser(`${Date.now().toString(36)}-off`));
      results.push(await run('shedding off', off.base, offToken));
      console.log(`  ${results[1]!.name}: ${results[1]!.served.count} served, ${results[1]!.shed.count} shed`);
    } finally {
      await off.stop();
    }
  }
  console.log(`\n${overloadTable(results)}`);
  return results;
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

async function runOne(target: Target, options: BenchOptions): Promise<RunReport> {
  const run = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const user = benchUser(run);
  const token = await register(target.base, user);
  const report: RunReport = { cache: target.cache, results: [], serverWarnings: 0 };
  if (options.soak > 0) {
    const { results, samples } = await runSoak(target, options, token, user);
    report.results = results;
    report.soak = samples;
  } else if (options.scenario === 'reader') {
    report.results = await runReader(target, options, token);
  } else if (options.scenario === 'account') {
    const { results, registrations } = await runAccount(target, options, token, run);
    report.results = results;
    report.registrations = registrations;
  } else if (options.scenario === 'overload') {
    report.overload = await runOverload(target, options, token);
  } else {
    report.results = await runRoutes(target, options, token, user);
  }
  return report;
}

async function main() {
  const parsed = parseOptions(process.argv.slice(2), process.env);
  if (parsed === 'help') {
    console.log(usage);
    return;
  }
  const options = parsed;
  const startedAt = new Date();
  if (!options.url) buildIfNeeded(root, options.build);
  const build = options.url ? undefined : (JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { id: string });
  const cpus = os.cpus();
  const machine = {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemoryMiB: Math.round(os.totalmem() / 1048576),
    loadAverageAtStart: os.loadavg(),
  };
  console.log(
    `Machine: ${machine.cpuCount} x ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const what = options.soak > 0 ? `soak ${options.soak} s` : options.scenario === 'routes' ? `${options.warmup} s warm-up + ${options.duration} s per route` : `scenario ${options.scenario}, ${options.duration} s`;
  console.log(
    `Target: ${options.url ?? 'local production build'}; ${options.connections} connections, ${what}; Accept-Encoding: ${options.encoding || '(none)'}\n`,
  );

  const modes: Target['cache'][] = options.url ? ['deployment'] : options.cache === 'both' ? ['off', 'on'] : [options.cache];
  const reports: RunReport[] = [];
  const resultsDir = join(root, 'bench/results');
  for (const cache of modes) {
    let target: Target;
    if (options.url) {
      target = { base: options.url, cache, output: [], stop: async () => undefined };
    } else {
      console.log(`Page cache ${cache}${cache === 'off' ? ' (PAGE_CACHE_TTL_MS=0: every page rendered)' : ''}:`);
      const server = await startLocalServer(root, {
        env: { ...(cache === 'off' ? { PAGE_CACHE_TTL_MS: '0' } : {}), ...(options.scenario === 'overload' ? {} : measuringEnv()) },
        cpuProfileDir: options.cpuProf ? join(resultsDir, 'profiles') : undefined,
      });
      target = { base: server.base, cache, output: server.output, stop: server.stop };
    }
    const stopOnSignal = () => void target.stop().finally(() => process.exit(130));
    process.once('SIGINT', stopOnSignal);
    process.once('SIGTERM', stopOnSignal);
    let report: RunReport;
    try {
      report = await runOne(target, options);
    } finally {
      const profile = await target.stop();
      process.off('SIGINT', stopOnSignal);
      process.off('SIGTERM', stopOnSignal);
      if (profile) console.log(`  CPU profile: ${relative(root, profile)}`);
    }
    const problems = target.output.filter((line) => /"level":(40|50|60)/.test(line) || !line.startsWith('{'));
    report.serverWarnings = problems.length;
    if (report.results.length > 0) console.log(`\n${table(report.results)}\n`);
    if (problems.length > 0) console.log(`The server logged ${problems.length} warning/error lines; the last:\n${problems.slice(-5).join('\n')}\n`);
    reports.push(report);
  }

  const output = {
    date: startedAt.toISOString(),
    commit: gitCommit(),
    buildId: build?.id,
    target: options.url ?? 'local',
    machine,
    options,
    runs: reports,
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`Written to ${relative(root, file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
