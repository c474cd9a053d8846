// `--scenario render`: what a page costs when it is rendered, against React's floor for the same
// bytes. Per page, four rows in a row: a bare Fastify + React server rendering that page's markup
// per request (bench/bare-server.ts, BENCH_BARE_REACT), the anonymous miss (a server with
// PAGE_CACHE_TTL_MS=0), the signed-in render (session cookie, on a server with the cache on) and the
// anonymous cache hit, each with its CPU per request over the floor's (docs/benchmark.md).
import { captureHit, startBareServer } from './bare.ts';
import { startLocalServer } from './local-server.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { BenchOptions } from './options.ts';
import { article, benchUser, pageHeaders, type BenchRoute } from './routes.ts';
import { done, probe, register, root, specFor, type Target } from './scenarios.ts';

interface RenderPage {
  name: string;
  path: string;
  /** Also measured with a session (a signed-in page is never a cache hit). */
  signedIn: boolean;
}

export const renderPages: RenderPage[] = [
  { name: '/', path: '/', signedIn: true },
  { name: '/th', path: '/th', signedIn: true },
  { name: '/asdas', path: '/asdas', signedIn: false },
  { name: 'article', path: article, signedIn: true },
  { name: '/login', path: '/login', signedIn: false },
];

/** Rows named `<page> <kind>`; each one's floor is `React floor <page>`. */
const row = (page: RenderPage, kind: string, extra: Partial<BenchRoute> = {}): BenchRoute => ({
  name: `${page.name} ${kind}`,
  path: page.path,
  headers: pageHeaders,
  ...extra,
});

export async function runRenderCost(options: BenchOptions, cpuProfileDir?: string): Promise<LoadResult[]> {
  const pages = options.routes
    ? renderPages.filter((page) => options.routes!.includes(page.name) || options.routes!.includes(page.path))
    : renderPages;
  if (pages.length === 0) throw new Error(`--routes matched none of ${renderPages.map((p) => p.name).join(', ')}`);
  const local = (cache: 'on' | 'off') =>
    startLocalServer(root, {
      env: {
        ...(cache === 'off' ? { PAGE_CACHE_TTL_MS: '0' } : {}),
        OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
        OVERLOAD_MAX_IN_FLIGHT: '0',
      },
      cpuProfileDir: cache === 'off' ? cpuProfileDir : undefined,
    });
  const [missServer, cachedServer] = [await local('off'), await local('on')];
  const target = (server: typeof missServer, cache: 'on' | 'off'): Target => ({
    base: server.base,
    cache,
    output: server.output,
    stop: server.stop,
  });
  const miss = target(missServer, 'off');
  const cached = target(cachedServer, 'on');
  const results: LoadResult[] = [];
  try {
    const token = await register(cached.base, benchUser(`${Date.now().toString(36)}-render`));
    const cookie = { cookie: `token=${token}` };
    for (const page of pages) {
      // The floor renders the anonymous page's markup, as sent without compression.
      const answer = await captureHit(miss.base, page.path, pageHeaders);
      const floor = await startBareServer(root, answer, [], { react: true });
      const floorTarget: Target = { base: floor.base, cache: 'off', output: [], stop: async () => undefined };
      try {
        const runs: [Target, BenchRoute][] = [
          [floorTarget, { ...row(page, ''), name: `React floor ${page.name}` }],
          [miss, row(page, 'miss')],
          ...(page.signedIn
            ? [[cached, row(page, 'signed in', { headers: { ...pageHeaders, ...cookie } })] as [Target, BenchRoute]]
            : []),
          [cached, row(page, 'hit')],
        ];
        const floorResult = await measure(runs[0]!, options, token);
        results.push(floorResult);
        for (const run of runs.slice(1)) {
          const result = await measure(run, options, token);
          if (result.cpuMsPerRequest !== undefined && floorResult.cpuMsPerRequest)
            result.cpuToFloor = result.cpuMsPerRequest / floorResult.cpuMsPerRequest;
          results.push(result);
        }
      } finally {
        await floor.stop();
      }
    }
  } finally {
    const [profile] = await Promise.all([miss.stop(), cached.stop()]);
    if (profile) console.log(`  CPU profile of the cache-off server: ${profile}`);
  }
  return results;
}

async function measure([target, route]: [Target, BenchRoute], options: BenchOptions, token: string) {
  const status = await probe(target, route, token, options.encoding);
  if (status !== 200) console.warn(`  warning: ${route.name} answered ${status}`);
  const result = await runLoad(specFor(target, options, token, route));
  done(result);
  return result;
}
