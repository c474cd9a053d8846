// The bench's scenarios (reader, account, soak, overload) and what every run shares: the target
// server, registering the bench user, one route's load spec. bench/run.ts runs them.
import type { Request } from 'autocannon';
import { resolve } from 'node:path';
import { startLocalServer } from './local-server.ts';
import { overloadRun, overloadTable, type OverloadResult } from './overload.ts';
import { progress, readProcess, runLoad, type LoadResult, type LoadSpec } from './load.ts';
import type { BenchOptions } from './options.ts';
import { compareToBaseline } from './report.ts';
import {
  benchUser,
  jsonBodyHeaders,
  loginRequest,
  readerSteps,
  singleRoutes,
  soakSteps,
  type BenchRoute,
} from './routes.ts';

export const root = resolve(import.meta.dirname, '..');

export interface Target {
  base: string;
  /** Local mode: which page cache setting this server runs with. */
  cache: 'on' | 'off' | 'deployment';
  output: string[];
  stop: () => Promise<string | undefined>;
  /** Local mode: the server's resident memory now and at its peak. */
  memory?: () => { rssMiB: number; peakMiB: number } | undefined;
}

export interface SoakSample {
  seconds: number;
  rssMiB: number;
  heapUsedMiB: number;
  requests: number;
}

export async function register(
  base: string,
  user: { email: string; password: string; displayName: string },
): Promise<string> {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: jsonBodyHeaders,
    body: JSON.stringify({ ...user, locale: 'en', acceptTerms: true, confirmAge: true }),
  });
  await response.arrayBuffer();
  const token = /(?:^|,\s*)token=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
  if (response.status !== 201 || !token) {
    const hint =
      response.status === 429 ? ' (rate limited: add this address to RATE_LIMIT_ALLOW_LIST on the server)' : '';
    throw new Error(`could not register ${user.email}: HTTP ${response.status}${hint}`);
  }
  return token;
}

function tokenFromSetCookie(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(', ') : (header ?? '');
  return /(?:^|,\s*)token=([^;]+)/.exec(value)?.[1];
}

export function specFor(target: Target, options: BenchOptions, token: string, route: BenchRoute): LoadSpec {
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

export async function probe(target: Target, route: BenchRoute, token: string, encoding: string): Promise<number> {
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

export function done(result: LoadResult) {
  const cpu = result.cpuMsPerRequest === undefined ? '' : `, ${result.cpuMsPerRequest.toFixed(3)} CPU ms/req`;
  const line = `  ${result.name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.latencyMs.p99} ms${cpu}`;
  if (process.stdout.isTTY) process.stdout.write(`\r${line}\u001b[K\n`);
  else console.log(line);
}

async function baselineResult(target: Target, options: BenchOptions, token: string): Promise<LoadResult | undefined> {
  const [baseline] = singleRoutes({ email: '', password: '' });
  if ((await probe(target, baseline!, token, options.encoding)) !== 200) return undefined;
  const result = await runLoad(specFor(target, options, token, baseline!));
  done(result);
  return result;
}

export async function runReader(target: Target, options: BenchOptions, token: string) {
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
export async function runAccount(target: Target, options: BenchOptions, token: string, run: string) {
  const connections = Math.min(options.connections, 8);
  const users: { email: string; password: string; displayName: string }[] = [];
  const started = Date.now();
  for (let index = 0; index < connections; index += 4) {
    const batch = Array.from({ length: Math.min(4, connections - index) }, (_, offset) =>
      benchUser(`${run}-${index + offset}`),
    );
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
          (context as Context).token = tokenFromSetCookie(headers?.['set-cookie']);
        },
      },
      1: { setupRequest: (request, context) => bearer(request, context) },
      2: { setupRequest: (request, context) => bearer(request, context) },
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
export async function runSoak(
  target: Target,
  options: BenchOptions,
  token: string,
  user: { email: string; password: string },
) {
  const samples: SoakSample[] = [];
  const first = await readProcess(target.base);
  if (!first)
    console.log('  (the server does not report its memory: only the server the bench starts does, for RSS figures)');
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
    console.log(
      `  RSS after the first minute: ${low.toFixed(1)} to ${high.toFixed(1)} MiB (last ${samples.at(-1)!.rssMiB.toFixed(1)} MiB)`,
    );
  }
  const peak = target.memory?.()?.peakMiB;
  if (peak !== undefined) console.log(`  Peak RSS since start: ${peak.toFixed(1)} MiB`);
  return { results: [result], samples };
}

/**
 * `--scenario overload`: the target as configured (shedding on by default), then, on the local
 * build, the same load on a second server with shedding off (OVERLOAD_* = 0) to compare.
 */
export async function runOverload(target: Target, options: BenchOptions, token: string): Promise<OverloadResult[]> {
  const run = (name: string, base: string, userToken: string) =>
    overloadRun({
      name,
      base,
      token: userToken,
      connections: options.connections,
      duration: options.duration,
      warmup: options.warmup,
      encoding: options.encoding,
    });
  const results = [await run(options.url ? 'deployment' : 'shedding on (defaults)', target.base, token)];
  console.log(`  ${results[0]!.name}: ${results[0]!.served.count} served, ${results[0]!.shed.count} shed`);
  if (!options.url) {
    const off = await startLocalServer(root, {
      env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_IN_FLIGHT: '0' },
    });
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
