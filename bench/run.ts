// `npm run bench`: load-tests the site with autocannon, route by route (or a scenario, or a soak),
// and compares every route with a constant page served by the same server in the same run.
// `npm run bench -- --help` lists the options; docs/benchmark.md explains the figures.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { captureHit, startBareServer } from './bare.ts';
import { buildIfNeeded, startLocalServer } from './local-server.ts';
import { backendTable, runBackendWork } from './backend-work.ts';
import { runRenderCost } from './render-cost.ts';
import { runStartUp } from './start-up.ts';
import type { OverloadResult } from './overload.ts';
import { runLoad, type LoadResult } from './load.ts';
import { parseOptions, usage, type BenchOptions } from './options.ts';
import { compareToBaseline, table } from './report.ts';
import { baselinePath, type BenchRoute, benchUser, singleRoutes } from './routes.ts';
import {
  done,
  probe,
  register,
  root,
  runAccount,
  runOverload,
  runReader,
  runSoak,
  specFor,
  type SoakSample,
  type Target,
} from './scenarios.ts';

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
 * load with cheap 503s, and the CPU per request and req/s would mix the two. The heap check stays:
 * it sheds only near V8's heap limit.
 */
function measuringEnv(): Record<string, string> {
  const off = { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_IN_FLIGHT: '0' };
  return Object.fromEntries(Object.entries(off).filter(([name]) => process.env[name] === undefined));
}

async function runRoutes(
  target: Target,
  options: BenchOptions,
  token: string,
  user: { email: string; password: string },
) {
  let routes = singleRoutes(user);
  const baselineAnswers = (await probe(target, routes[0]!, token, options.encoding)) === 200;
  if (!baselineAnswers) {
    console.log(
      `  (no ${baselinePath} on this server: only the server the bench starts has it, for ratios and CPU figures)`,
    );
    routes = routes.filter((route) => !route.baseline && !route.benchOnly);
  }
  if (options.routes) {
    const wanted = options.routes;
    const named = (route: BenchRoute) => wanted.includes(route.path) || wanted.includes(route.name ?? '');
    // A page's React floor row goes with the page.
    const pages = new Set(routes.filter(named).map((route) => route.name ?? route.path));
    routes = routes.filter(
      (route) => route.baseline || named(route) || (route.floorOf !== undefined && pages.has(route.floorOf)),
    );
    if (routes.every((route) => route.baseline)) throw new Error(`--routes matched no route: ${wanted.join(', ')}`);
  }
  const bare = options.bare === undefined ? undefined : await startBare(target, options, routes);
  const results: LoadResult[] = [];
  try {
    for (const route of routes) {
      const status = await probe(target, route, token, options.encoding);
      if (status !== (route.status ?? 200))
        console.warn(`  warning: ${route.path} answered ${status}, expected ${route.status ?? 200}`);
      // Right before its page, so both see the same machine.
      if (bare && route === bare.page) {
        const result = await runLoad(specFor({ ...target, base: bare.server.base }, options, token, bare.route));
        result.bareOf = bare.page.name ?? bare.page.path;
        done(result);
        results.push(result);
      }
      const result = await runLoad(specFor(target, options, token, route));
      if (route.floorOf !== undefined) result.floorOf = route.floorOf;
      done(result);
      results.push(result);
    }
  } finally {
    await bare?.server.stop();
  }
  compareToBaseline(results, baselineAnswers ? results[0] : undefined);
  return results;
}

/** `--bare <page>`: the page's cache hit captured once, then repeated by a bare Fastify server. */
async function startBare(target: Target, options: BenchOptions, routes: BenchRoute[]) {
  const page = routes.find(
    (route) => !route.baseline && !route.benchOnly && (route.path === options.bare || route.name === options.bare),
  );
  if (!page || (page.method ?? 'GET') !== 'GET' || page.authenticated)
    throw new Error(`--bare must name an anonymous GET route the run loads, got '${options.bare}'`);
  const headers = { ...page.headers, ...(options.encoding ? { 'accept-encoding': options.encoding } : {}) };
  const answer = await captureHit(target.base, page.path, headers);
  if (answer.cache !== 'HIT')
    console.log(`  (${page.path} is not served from the page cache here: the bare server repeats a rendered answer)`);
  const server = await startBareServer(root, answer);
  const name = `bare Fastify ${page.name ?? page.path}`;
  return { page, server, route: { ...page, name } satisfies BenchRoute };
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
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
  if (!options.url) await buildIfNeeded(root, options.build);
  const build = options.url
    ? undefined
    : (JSON.parse(readFileSync(join(root, 'dist/build.json'), 'utf8')) as { id: string });
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
  const what =
    options.soak > 0
      ? `soak ${options.soak} s`
      : options.scenario === 'routes'
        ? `${options.warmup} s warm-up + ${options.duration} s per route`
        : `scenario ${options.scenario}, ${options.duration} s`;
  console.log(
    `Target: ${options.url ?? 'local production build'}; ${options.connections} connections, ${what}; Accept-Encoding: ${options.encoding || '(none)'}\n`,
  );

  if (options.scenario === 'start-up') {
    if (options.url) throw new Error('--scenario start-up starts the local build; it takes no --url');
    const startUp = await runStartUp(root, 5, {});
    writeResults({ date: startedAt.toISOString(), commit: gitCommit(), buildId: build?.id, machine, startUp });
    return;
  }

  if (options.scenario === 'backend') {
    if (options.url) throw new Error('--scenario backend starts the local build; it takes no --url');
    const backend = await runBackendWork();
    console.log(
      `\n${backendTable(backend.kinds)}\nPostgreSQL connections held after 50 signed-in requests at once: ${backend.connectionsUnderLoad}\n`,
    );
    writeResults({ date: startedAt.toISOString(), commit: gitCommit(), buildId: build?.id, machine, backend });
    return;
  }

  if (options.scenario === 'render') {
    const profiles = options.cpuProf ? join(root, 'bench/results/profiles') : undefined;
    const results = await runRenderCost(options, profiles);
    console.log(`\n${table(results)}\n`);
    writeResults({ date: startedAt.toISOString(), commit: gitCommit(), buildId: build?.id, machine, options, results });
    return;
  }

  const modes: Target['cache'][] = options.url
    ? ['deployment']
    : options.cache === 'both'
      ? ['off', 'on']
      : [options.cache];
  const reports: RunReport[] = [];
  const resultsDir = join(root, 'bench/results');
  for (const cache of modes) {
    let target: Target;
    if (options.url) {
      target = { base: options.url, cache, output: [], stop: async () => undefined };
    } else {
      console.log(`Page cache ${cache}${cache === 'off' ? ' (PAGE_CACHE_TTL_MS=0: every page rendered)' : ''}:`);
      const server = await startLocalServer(root, {
        env: {
          ...(cache === 'off' ? { PAGE_CACHE_TTL_MS: '0' } : {}),
          ...(options.scenario === 'overload' ? {} : measuringEnv()),
        },
        cpuProfileDir: options.cpuProf ? join(resultsDir, 'profiles') : undefined,
      });
      target = { base: server.base, cache, output: server.output, stop: server.stop, memory: server.memory };
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
    if (problems.length > 0)
      console.log(
        `The server logged ${problems.length} warning/error lines; the last:\n${problems.slice(-5).join('\n')}\n`,
      );
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
  writeResults(output);
}

/** bench/results/{date}.json */
function writeResults(output: { date: string } & Record<string, unknown>) {
  const resultsDir = join(root, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${output.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  console.log(`Written to ${relative(root, file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
