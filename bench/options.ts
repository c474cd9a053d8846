import { parseArgs } from 'node:util';

export type Scenario = 'routes' | 'render' | 'reader' | 'account' | 'overload' | 'start-up' | 'backend';
export type CacheMode = 'on' | 'off' | 'both';

export interface BenchOptions {
  /** A running deployment to drive (no local server); undefined: start the production build here. */
  url: string | undefined;
  connections: number;
  /** Seconds measured per route (after the warm-up). */
  duration: number;
  warmup: number;
  /** Route names or paths to run (default: all of the scenario's). */
  routes: string[] | undefined;
  scenario: Scenario;
  /** Seconds of mixed load with RSS reported every 30 s (0: no soak). */
  soak: number;
  /** Local mode: run with the page cache on, off (PAGE_CACHE_TTL_MS=0) or both, one after the other. */
  cache: CacheMode;
  /** Accept-Encoding sent with every request ('' sends none). */
  encoding: string;
  build: boolean;
  /** Local mode: write a CPU profile of the server (node --cpu-prof) under bench/results/. */
  cpuProf: boolean;
  /** Local mode: a page (path or name) whose cache hit a bare Fastify server repeats, measured beside it. */
  bare: string | undefined;
}

export const usage = `npm run bench -- [options]

  --url <origin>        drive a running deployment (no local start); CPU and memory figures and
                        the baseline need the bench's routes, which only the local server has:
                        they are left blank
  --connections <n>     concurrent connections (default 50, 300 for overload; login uses at most 8)
  --duration <s>        seconds measured per route (default 10)
  --warmup <s>          seconds of unmeasured load first (default 2)
  --routes <a,b>        only these routes (names or paths as the table shows them; a page keeps its React floor row)
  --scenario <name>     routes (default): each route on its own
                        render: per page (/, /th, /asdas, article, /login) a bare Fastify + React
                        server rendering its markup (the floor), the anonymous miss (cache off),
                        signed in (session cookie) and the cache hit, with CPU x floor; no
                        compression
                        reader: home -> list -> article as documents, then their payloads
                        account: each virtual user registers once, then login / me / Play
                        overload: uncached pages (a logged-in reader's) at 300 connections, with
                        overload shedding as configured and (local) with it off: served latency,
                        503s, socket errors
                        start-up: local only; 5 starts on a new data folder and 5 on the folder
                        it made: time to ready and memory (a replica's with DATABASE_URL set)
                        backend: local only, DATABASE_URL and REDIS_URL set; database queries and
                        Redis commands per request of each kind, connections held under load
  --soak <s>            mixed load (pages, payloads, me, login) for <s> seconds, RSS every 30 s
                        and (local) the peak
  --cache <on|off|both> local mode: page cache on, off (PAGE_CACHE_TTL_MS=0) or both (default on)
  --encoding <value>    Accept-Encoding to send (default "br, gzip"; "" for none)
  --build               rebuild first (otherwise only when dist/ is missing)
  --cpu-prof            local mode: profile the server (node --cpu-prof) into bench/results/
  --bare <page>         local mode: also run a bare Fastify server answering that page's cache hit
                        (bytes and headers captured from the server) as a constant; the page's row
                        gets its CPU over the bare one's ("CPU x bare")
  --help

Environment (older spellings): BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ROUTES.
The local server runs with the image's settings (lib/runtime-env.ts) unless NODE_OPTIONS, the
MALLOC_ variables or BENCH_NODE_FLAGS (its command-line V8 flags, e.g. "--maglev") say otherwise.
Results: a table on stdout and JSON in bench/results/{timestamp}.json.`;

function number(name: string, value: string | undefined, fallback: number, { min = 0, integer = false } = {}): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min || (integer && !Number.isInteger(parsed))) {
    throw new Error(`${name} must be ${integer ? 'a whole number' : 'a number'} >= ${min}, got '${value}'`);
  }
  return parsed;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      connections: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      routes: { type: 'string' },
      scenario: { type: 'string' },
      soak: { type: 'string' },
      cache: { type: 'string' },
      encoding: { type: 'string' },
      build: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      bare: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return 'help';
  let url: string | undefined;
  if (values.url !== undefined) {
    const parsed = URL.canParse(values.url) ? new URL(values.url) : undefined;
    if (!parsed || !/^https?:$/.test(parsed.protocol))
      throw new Error(`--url must be an http(s) origin, got '${values.url}'`);
    url = parsed.origin;
  }
  const scenario = (values.scenario ?? 'routes') as Scenario;
  if (!['routes', 'render', 'reader', 'account', 'overload', 'start-up', 'backend'].includes(scenario))
    throw new Error(
      `--scenario must be routes, render, reader, account, overload, start-up or backend, got '${scenario}'`,
    );
  if (scenario === 'render' && (url || values.cache !== undefined || values.bare !== undefined))
    throw new Error('--scenario render starts its own servers (cache off and on): no --url, --cache or --bare');
  if (scenario === 'render' && values.encoding)
    throw new Error('--scenario render compares uncompressed answers: leave out --encoding');
  const cache = (values.cache ?? 'on') as CacheMode;
  if (!['on', 'off', 'both'].includes(cache)) throw new Error(`--cache must be on, off or both, got '${cache}'`);
  if (url && values.cache !== undefined)
    throw new Error('--cache needs the local server: a deployment keeps its own PAGE_CACHE_TTL_MS');
  if (url && values['cpu-prof']) throw new Error('--cpu-prof needs the local server');
  if (values.bare !== undefined && (url || scenario !== 'routes'))
    throw new Error('--bare needs the local server and the routes scenario');
  const routes = (values.routes ?? env.BENCH_ROUTES)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return {
    url,
    connections: number(
      '--connections',
      values.connections ?? env.BENCH_CONNECTIONS,
      scenario === 'overload' ? 300 : 50,
      { min: 1, integer: true },
    ),
    duration: number('--duration', values.duration ?? env.BENCH_DURATION, 10, { min: 1 }),
    warmup: number('--warmup', values.warmup ?? env.BENCH_WARMUP, 2),
    routes: routes?.length ? routes : undefined,
    scenario,
    soak: number('--soak', values.soak, 0),
    cache,
    encoding: values.encoding ?? (scenario === 'render' ? '' : 'br, gzip'),
    build: values.build,
    cpuProf: values['cpu-prof'],
    bare: values.bare,
  };
}
