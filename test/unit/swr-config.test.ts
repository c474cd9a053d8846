import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FetchError } from 'ofetch';
import { unstable_serialize, type Cache, type Key, type SWRConfiguration, type SWRHook } from 'swr';
import { initCache } from 'swr/_internal';
import { CACHE_TTL_MS, createSwrCache, markFetched, SwrCache } from '../../client/lib/swr-cache.ts';
import {
  FRESH_MS,
  MAX_ERROR_RETRIES,
  createOnErrorRetry,
  createSwrConfig,
  freshnessMiddleware,
  isClientError,
  isFresh,
  retryDelay,
  seedFallback,
  shouldRetry,
  statusOf,
  swrConfig,
} from '../../client/lib/swr-config.ts';

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    set: (v: number) => {
      now = v;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const fetchError = (status: number) =>
  Object.assign(new FetchError(`[GET] "/api/x": ${status}`), { statusCode: status, status });

t.test('constants of the configuration', async (t) => {
  t.equal(FRESH_MS, 5000);
  t.equal(MAX_ERROR_RETRIES, 3);
  t.equal(CACHE_TTL_MS, 300_000);
  t.equal(swrConfig.dedupingInterval, 5000);
  t.equal(swrConfig.focusThrottleInterval, 5000);
  t.equal(swrConfig.errorRetryCount, 3);
  t.equal(swrConfig.revalidateIfStale, true);
  t.type(swrConfig.fetcher, 'function');
  t.type(swrConfig.onErrorRetry, 'function');
  t.equal(swrConfig.use?.length, 1, 'freshness middleware installed');
  const cache = swrConfig.provider!(new Map() as unknown as Cache);
  t.ok(cache instanceof SwrCache, 'provider gives an SwrCache');
  t.equal((cache as SwrCache).ttlMs, 300_000);
  t.not(swrConfig.provider!(new Map() as unknown as Cache), cache, 'a new cache per provider call (per SWRConfig / per server render)');
});

t.test('retryDelay: min(1000 * 2^attempt, 30000)', async (t) => {
  const expected = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000];
  expected.forEach((ms, attempt) => t.equal(retryDelay(attempt), ms, `attempt ${attempt}`));
  t.equal(retryDelay(100), 30000);
  t.equal(retryDelay(-1), 1000, 'negative attempt treated as 0');
});

t.test('statusOf / isClientError / shouldRetry', async (t) => {
  t.equal(statusOf(fetchError(404)), 404);
  t.equal(statusOf({ status: 503 }), 503);
  t.equal(statusOf({ response: { status: 418 } }), 418);
  t.equal(statusOf(new Error('network')), undefined);
  t.equal(statusOf(null), undefined);
  for (const s of [400, 401, 403, 404, 408, 409, 422, 429, 499]) t.equal(isClientError(fetchError(s)), true, `${s}`);
  for (const s of [399, 500, 502, 503, 504]) t.equal(isClientError(fetchError(s)), false, `${s}`);
  t.equal(isClientError(new TypeError('Failed to fetch')), false);

  t.equal(shouldRetry(fetchError(500), 1), true);
  t.equal(shouldRetry(fetchError(500), 3), true);
  t.equal(shouldRetry(fetchError(500), 4), false, 'at most 3 retries');
  t.equal(shouldRetry(new Error('network'), 2), true);
  t.equal(shouldRetry(fetchError(404), 1), false, 'never for 4xx');
  t.equal(shouldRetry(fetchError(429), 1), false, 'never for 4xx, 429 included');
});

/** Drives SWR's retry loop the way SWR does: each failed revalidation calls onErrorRetry with retryCount + 1. */
async function driveRetries(error: unknown, failuresBeforeSuccess = Infinity) {
  const timers: Array<{ ms: number; fn: () => void }> = [];
  const onErrorRetry = createOnErrorRetry({ schedule: (fn, ms) => timers.push({ fn, ms }) });
  const delays: number[] = [];
  let attempts = 1; // the original request already failed
  const revalidate = (opts?: { retryCount?: number; dedupe?: boolean }) => {
    attempts++;
    if (attempts <= failuresBeforeSuccess) {
      onErrorRetry(error, '/x', {}, revalidate, { retryCount: (opts?.retryCount ?? 0) + 1, dedupe: true });
    }
  };
  onErrorRetry(error, '/x', {}, revalidate, { retryCount: 1, dedupe: true });
  // Fire timers one by one (a fake clock).
  while (timers.length) {
    const timer = timers.shift()!;
    delays.push(timer.ms);
    timer.fn();
  }
  return { delays, attempts };
}

t.test('onErrorRetry: 3 retries at 1000, 2000, 4000 ms for 5xx and network errors', async (t) => {
  for (const error of [fetchError(500), fetchError(503), new TypeError('Failed to fetch'), new Error('boom')]) {
    const { delays, attempts } = await driveRetries(error);
    t.same(delays, [1000, 2000, 4000], `${(error as Error).message}: delays`);
    t.equal(attempts, 4, 'one request and three retries');
  }
  const recovered = await driveRetries(fetchError(502), 2);
  t.same(recovered.delays, [1000, 2000], 'stops once a retry succeeds');
  t.equal(recovered.attempts, 3);
});

t.test('onErrorRetry: never for 4xx', async (t) => {
  for (const status of [400, 401, 403, 404, 409, 422, 429]) {
    const { delays, attempts } = await driveRetries(fetchError(status));
    t.same(delays, [], `${status}: no retry scheduled`);
    t.equal(attempts, 1);
  }
  const config = createSwrConfig();
  const shouldRetryOnError = config.shouldRetryOnError as (e: unknown) => boolean;
  t.equal(shouldRetryOnError(fetchError(404)), false);
  t.equal(shouldRetryOnError(fetchError(500)), true);
});

t.test('onErrorRetry passes the retry options through and uses real timers by default', async (t) => {
  const onErrorRetry = createOnErrorRetry();
  const started = Date.now();
  const seen = await new Promise<{ retryCount?: number; dedupe?: boolean }>((resolve) => {
    onErrorRetry(new Error('x'), '/k', {}, (opts) => resolve(opts ?? {}), { retryCount: 1, dedupe: true });
  });
  t.same(seen, { retryCount: 1, dedupe: true });
  t.ok(Date.now() - started >= 950, 'waited about 1000 ms');
});

t.test('SwrCache: drops entries unused for 5 minutes, keeps accessed ones', async (t) => {
  const c = clock();
  const cache = createSwrCache({ now: c.now, isInUse: () => false });
  cache.set('/a', { data: 'A' });
  cache.set('/b', { data: 'B' });
  c.advance(299_999);
  t.same(cache.get('/a'), { data: 'A' }, '/a read just before 5 min: kept and touched');
  c.advance(1);
  t.equal(cache.get('/b'), undefined, '/b unused for exactly 300000 ms: dropped');
  t.same([...cache.keys()], ['/a'], 'keys() does not count as an access');
  c.advance(299_998);
  t.same(cache.get('/a'), { data: 'A' }, '/a kept: its last access was 299999 ms ago');
  c.advance(300_000);
  t.equal(cache.get('/a'), undefined);
  t.equal(cache.size, 0);
});

t.test('SwrCache: set counts as access; sweep on access; explicit sweep', async (t) => {
  const c = clock();
  const cache = new SwrCache({ now: c.now, isInUse: () => false, sweepEveryMs: 60_000 });
  cache.set('/old', { data: 1 });
  c.advance(200_000);
  cache.set('/new', { data: 2 });
  c.advance(100_000); // /old idle 300000, /new idle 100000
  cache.set('/other', { data: 3 }); // access triggers a sweep (>= 60 s since the last)
  t.same([...cache.keys()].sort(), ['/new', '/other'], '/old swept on access');
  c.advance(200_000);
  t.same(cache.sweep(), ['/new']);
  t.equal(cache.size, 1);
  cache.delete('/other');
  t.equal(cache.size, 0);
});

t.test('SwrCache: entries in use are never dropped', async (t) => {
  const c = clock();
  const used = new Set(['/mounted']);
  const cache = new SwrCache({ now: c.now, isInUse: (k) => used.has(k) });
  cache.set('/mounted', { data: 1 });
  cache.set('/idle', { data: 2 });
  c.advance(CACHE_TTL_MS * 3);
  t.same(cache.sweep(), ['/idle']);
  t.same(cache.get('/mounted'), { data: 1 });
  used.delete('/mounted');
  c.advance(CACHE_TTL_MS - 1);
  t.same(cache.sweep(), [], 'in use counted as an access');
  c.advance(1);
  t.same(cache.sweep(), ['/mounted']);
});

t.test('SwrCache: default in-use check reads SWR state (mounted revalidators, fetch in flight)', async (t) => {
  const c = clock();
  const cache = new SwrCache({ now: c.now });
  initCache(cache, {}); // what <SWRConfig provider> does
  cache.set('/mounted', { data: 1 });
  cache.set('/loading', { data: 2 });
  cache.set('/idle', { data: 3 });
  const { SWRGlobalState } = await import('swr/_internal');
  const state = SWRGlobalState.get(cache) as unknown as [Record<string, unknown[]>, unknown, Record<string, unknown>];
  state[0]['/mounted'] = [() => {}];
  state[2]['/loading'] = [Promise.resolve(), 1];
  c.advance(CACHE_TTL_MS);
  t.same(cache.sweep(), ['/idle']);
});

t.test('SwrCache sweeper timer', async (t) => {
  const c = clock();
  const cache = new SwrCache({ now: c.now, isInUse: () => false });
  let tick: (() => void) | undefined;
  let cleared = false;
  const stop = cache.startSweeper(10_000, {
    setInterval: (fn) => {
      tick = fn;
      return 7;
    },
    clearInterval: (h) => {
      cleared = h === 7;
    },
  });
  cache.set('/x', { data: 1 });
  c.advance(CACHE_TTL_MS);
  tick!();
  t.equal(cache.size, 0, 'timer sweep dropped the entry');
  stop();
  t.equal(cleared, true);
});

t.test('seedFallback uses exactly the client key', async (t) => {
  t.same(seedFallback('/auth/me', { id: 1 }), { '/auth/me': { id: 1 } });
  const arrayKey = ['/content/list', { page: 2, locale: 'th' }] as const;
  const seeded = seedFallback(arrayKey as unknown as Key, [1, 2]);
  t.same(Object.keys(seeded), [unstable_serialize(arrayKey as unknown as Key)]);
  t.same(
    Object.keys(seedFallback(['/content/list', { locale: 'th', page: 2 }], [])),
    Object.keys(seeded),
    'object key order does not matter',
  );
  t.throws(() => seedFallback(null, 1), TypeError);
  t.throws(() => seedFallback('', 1), TypeError);
});

/** Runs the middleware with a fake `useSWRNext` and returns what it passed on. */
function runMiddleware(
  mw: ReturnType<typeof freshnessMiddleware>,
  key: Key,
  fetcher: ((...a: any[]) => unknown) | null,
  config: SWRConfiguration & { cache: Cache },
) {
  let passed: { key: Key; fetcher: ((...a: any[]) => unknown) | null; config: SWRConfiguration } | undefined;
  const next = ((k: Key, f: any, cfg: SWRConfiguration) => {
    passed = { key: k, fetcher: f, config: cfg };
    return {} as any;
  }) as unknown as SWRHook;
  mw(next)(key, fetcher as any, config as any);
  return passed!;
}

t.test('freshness: seeded (hydration/payload) data is not fetched again within 5000 ms', async (t) => {
  const c = clock();
  const mw = freshnessMiddleware({ now: c.now });
  const cache = createSwrCache({ now: c.now, isInUse: () => false });
  const loaderData = { user: 'Ann' };
  const config = { cache, fallback: seedFallback('/auth/me', loaderData) };

  let r = runMiddleware(mw, '/auth/me', async () => 'net', config);
  t.equal(r.config.revalidateOnMount, false, 'hydration: no mount revalidation');
  t.equal(r.config.revalidateIfStale, false);
  c.advance(4999);
  r = runMiddleware(mw, '/auth/me', async () => 'net', config);
  t.equal(r.config.revalidateOnMount, false, 'still fresh at 4999 ms');
  c.advance(1);
  r = runMiddleware(mw, '/auth/me', async () => 'net', config);
  t.equal(r.config.revalidateOnMount, undefined, 'stale at 5000 ms: SWR revalidates as usual');
  t.equal(r.config.revalidateIfStale, undefined);

  // A new page payload for the same key starts a new fresh window.
  const payload2 = { user: 'Ann', v: 2 };
  r = runMiddleware(mw, '/auth/me', async () => 'net', { cache, fallback: seedFallback('/auth/me', payload2) });
  t.equal(r.config.revalidateOnMount, false, 'new fallback value: fresh again');

  // fallbackData (per hook) works the same way.
  r = runMiddleware(mw, '/other', async () => 'net', { cache, fallbackData: { x: 1 } });
  t.equal(r.config.revalidateOnMount, false);
});

t.test('freshness: fetched data is fresh for 5000 ms after the fetch resolves', async (t) => {
  const c = clock();
  const mw = freshnessMiddleware({ now: c.now });
  const cache = createSwrCache({ now: c.now, isInUse: () => false });

  let r = runMiddleware(mw, '/list', async () => [1], { cache });
  t.equal(r.config.revalidateOnMount, undefined, 'no data: SWR fetches');
  // The request takes 2 s; the fresh window starts when it resolves.
  let resolve!: (v: number[]) => void;
  const pending = r.fetcher!('/list') as Promise<number[]>;
  r = runMiddleware(mw, '/list', () => new Promise<number[]>((res) => (resolve = res)), { cache });
  const slow = r.fetcher!('/list') as Promise<number[]>;
  await pending;
  c.advance(2000);
  resolve([1, 2]);
  t.same(await slow, [1, 2], 'wrapped fetcher returns the data');
  cache.set('/list', { data: [1, 2] }); // what SWR does with the result

  c.advance(4999);
  r = runMiddleware(mw, '/list', async () => [3], { cache });
  t.equal(r.config.revalidateOnMount, false, '4999 ms after the response: fresh');
  t.equal(r.config.revalidateIfStale, false);
  c.advance(1);
  r = runMiddleware(mw, '/list', async () => [3], { cache });
  t.equal(r.config.revalidateOnMount, undefined, '5000 ms after: stale, revalidates');
});

t.test('freshness: failures and data without a fetch are not fresh', async (t) => {
  const c = clock();
  const mw = freshnessMiddleware({ now: c.now });
  const cache = createSwrCache({ now: c.now, isInUse: () => false });
  const r = runMiddleware(mw, '/fail', async () => {
    throw fetchError(500);
  }, { cache });
  await t.rejects(r.fetcher!('/fail') as Promise<unknown>);
  cache.set('/fail', { data: 'old' });
  t.equal(isFresh(cache, '/fail', undefined, c.now()), false, 'a failed fetch does not make data fresh');
  cache.set('/mutated', { data: 'local' });
  t.equal(isFresh(cache, '/mutated', undefined, c.now()), false, 'mutate(key, data) alone is not a fetch');
  markFetched(cache, '/mutated', c.now());
  t.equal(isFresh(cache, '/mutated', undefined, c.now()), true);
  cache.delete('/mutated');
  cache.set('/mutated', { data: 'again' });
  t.equal(isFresh(cache, '/mutated', undefined, c.now()), false, 'deleting the entry forgets its freshness');
  t.equal(isFresh(cache, '/none', undefined, c.now()), false, 'no data at all');
});

t.test('freshness: sync fetchers, null fetcher, empty keys pass through', async (t) => {
  const c = clock();
  const mw = freshnessMiddleware({ now: c.now });
  const cache = createSwrCache({ now: c.now, isInUse: () => false });
  let r = runMiddleware(mw, '/sync', () => 42, { cache });
  t.equal(r.fetcher!('/sync'), 42);
  cache.set('/sync', { data: 42 });
  t.equal(isFresh(cache, '/sync', undefined, c.now()), true);
  r = runMiddleware(mw, '/nofetch', null, { cache });
  t.equal(r.fetcher, null);
  const f = async () => 1;
  const cfg = { cache };
  r = runMiddleware(mw, null, f, cfg);
  t.equal(r.fetcher, f, 'null key: untouched');
  t.equal(r.config, cfg);
});

t.test('createSwrConfig wires the fetcher, the injected clock and scheduler', async (t) => {
  const c = clock();
  const timers: number[] = [];
  const fetcher = async (k: string) => k;
  const config = createSwrConfig({ fetcher, now: c.now, schedule: (_fn, ms) => timers.push(ms) });
  t.equal(config.fetcher, fetcher);
  (config.onErrorRetry as any)(fetchError(503), '/k', config, () => {}, { retryCount: 2, dedupe: true });
  t.same(timers, [2000]);
  const cache = config.provider!(new Map() as unknown as Cache) as SwrCache;
  cache.set('/k', { data: 1 });
  c.advance(CACHE_TTL_MS);
  t.equal(cache.get('/k'), undefined, 'provider cache uses the injected clock');
});

// SWR has no staleTime; our fresh window for fetched data relies on SWR 2.x clearing a
// request's dedupe marker `dedupingInterval` ms after the request RESOLVES (and at once
// on failure), and on automatic revalidations being deduped. Pin that, so an SWR upgrade
// that changes it fails here instead of silently refetching.
t.test('SWR dedupe semantics this config relies on', async (t) => {
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve('swr/package.json'));
  const file = readdirSync(join(dist, 'dist')).find((f) => /^use-swr-.*\.mjs$/.test(f));
  t.ok(file, 'found the SWR hook source');
  const src = readFileSync(join(dist, 'dist', file!), 'utf8');
  t.match(src, /newData = await newData;\s*if \(shouldStartNewRequest\) \{[\s\S]{0,200}setTimeout\(cleanupState, config\.dedupingInterval\)/, 'dedupe window starts after the response');
  t.match(src, /catch \(err\) \{\s*cleanupState\(\);/, 'a failure clears the dedupe marker at once');
  t.match(src, /const softRevalidate = revalidate\.bind\(UNDEFINED, WITH_DEDUPE\)/, 'automatic revalidations are deduped');
  t.match(src, /if \(!FETCH\[key\]\) \{/, 'mount revalidation is skipped while a dedupe marker exists');
  t.match(src, /isInitialMount && !isUndefined\(revalidateOnMount\)\) return revalidateOnMount/, 'revalidateOnMount is honoured on the first mount');
  t.match(src, /return isUndefined\(data\) \|\| revalidateIfStale;/, 'revalidateIfStale governs later key changes');
});
