/**
 * SWR, configured once for the whole app (`<SWRConfig value={swrConfig}>`).
 *
 * Spec constants and how each is implemented:
 *
 * - Data is fresh for 5000 ms: no automatic refetch within 5000 ms of the last
 *   successful fetch. SWR has no `staleTime`, so three pieces work together:
 *   1. `dedupingInterval: 5000`. In SWR 2.x the dedupe marker of a request is
 *      cleared `dedupingInterval` ms after the request RESOLVES (and at once when
 *      it fails), and every automatic revalidation (mount, focus, reconnect,
 *      polling, error retry) is a deduped one. So within 5000 ms of a success
 *      those triggers reuse the result instead of fetching. (A unit test pins
 *      this SWR behaviour so an upgrade that changes it is noticed.)
 *   2. `focusThrottleInterval: 5000`: no focus revalidation within 5000 ms of
 *      mount or of the previous focus revalidation.
 *   3. `freshnessMiddleware`: records when each key last fetched successfully
 *      (per cache) and when server/page-loader data was first seen as
 *      `fallback`; while that is younger than 5000 ms and data exists, a hook
 *      that mounts (or switches to that key) does not revalidate
 *      (`revalidateOnMount: false`, `revalidateIfStale: false`). This is what
 *      keeps hydration from fetching again what the server just rendered
 *      (fallback is not in the cache, so (1) cannot cover it).
 *   An explicit `mutate()` always fetches (SWR bypasses dedupe for it): fresh
 *   data must not block a refresh the app asked for, e.g. after a login.
 * - Failed fetches are retried up to 3 times with delay
 *   `min(1000 * 2 ** attempt, 30000)` ms, attempt 0 for the first retry
 *   (1000, 2000, 4000 ms), and never for 4xx (status from ofetch's
 *   `FetchError.statusCode`). Errors without a status (network) are retried.
 *   Note: the API client itself already retried a GET once on 408/409/425/429/
 *   5xx/network errors before SWR sees the failure.
 * - Unused cached data is discarded after 5 minutes: `SwrCache` (swr-cache.ts) records the
 *   last access (get/set) of every entry and drops entries not accessed for
 *   300000 ms, unless a mounted hook or a request in flight still uses the key.
 *   Sweeps run on access (at most once per `sweepEveryMs`, default 60 s) and on
 *   demand (`sweep()`, or `startSweeper()` for a timer); an expired entry read
 *   by `get` is dropped right away. An idle app does not grow, so no timer is
 *   started by default (none on the server, where each render gets a new cache).
 * - `seedFallback(key, data)` builds `fallback` with exactly the serialized key
 *   `useSWR(key)` uses on the client (`unstable_serialize`).
 */
import {
  unstable_serialize,
  type BareFetcher,
  type Cache,
  type Key,
  type Middleware,
  type RevalidatorOptions,
  type SWRConfiguration,
  type SWRHook,
  type State,
} from 'swr';
import { api } from './api.ts';
import { CACHE_TTL_MS, createSwrCache, markFetched, stampsFor } from './swr-cache.ts';

export const FRESH_MS = 5_000;
export const MAX_ERROR_RETRIES = 3;
export const RETRY_BASE_MS = 1_000;
export const RETRY_CAP_MS = 30_000;

// ---------------------------------------------------------------------------
// Error retry

/** Delay before retry number `attempt + 1` (attempt starts at 0): 1000, 2000, 4000 ... capped at 30000. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt), RETRY_CAP_MS);
}

/** HTTP status of an error: ofetch `FetchError.statusCode` (or `status`, or `response.status`). */
export function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const v of [e.statusCode, e.status, e.response?.status]) {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return undefined;
}

export function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}

/** `retryCount` is SWR's: 1 for the first retry. */
export function shouldRetry(error: unknown, retryCount: number, maxRetries = MAX_ERROR_RETRIES): boolean {
  return !isClientError(error) && retryCount >= 1 && retryCount <= maxRetries;
}

export type Schedule = (fn: () => void, ms: number) => unknown;

export interface OnErrorRetryOptions {
  schedule?: Schedule;
  maxRetries?: number;
}

export type OnErrorRetry = (
  error: unknown,
  key: string,
  config: unknown,
  revalidate: (opts?: RevalidatorOptions) => unknown,
  opts: Required<RevalidatorOptions>,
) => void;

export function createOnErrorRetry(options: OnErrorRetryOptions = {}): OnErrorRetry {
  const schedule: Schedule = options.schedule ?? ((fn, ms) => setTimeout(fn, ms));
  const maxRetries = options.maxRetries ?? MAX_ERROR_RETRIES;
  return (error, _key, _config, revalidate, opts) => {
    const retryCount = opts.retryCount;
    if (!shouldRetry(error, retryCount, maxRetries)) return;
    schedule(() => {
      void revalidate(opts);
    }, retryDelay(retryCount - 1));
  };
}

// ---------------------------------------------------------------------------
// Freshness

/** The serialized cache key SWR uses for `key` ('' when the key is falsy / not ready). */
export function swrKey(key: Key): string {
  return unstable_serialize(key);
}

/** `fallback` entry for page-loader data, under exactly the key the client's `useSWR(key)` reads. */
export function seedFallback<T>(key: Key, data: T): Record<string, T> {
  const serialized = swrKey(key);
  if (!serialized) throw new TypeError('seedFallback: the key is empty');
  return { [serialized]: data };
}

export interface FreshnessOptions {
  now?: () => number;
  freshMs?: number;
}

/**
 * Decide, for one render of `useSWR(key)`, whether the data it would show is
 * fresh (younger than `freshMs`). Exposed for tests; the middleware uses it.
 */
export function isFresh(
  cache: Cache,
  key: string,
  fallback: unknown,
  now: number,
  freshMs: number = FRESH_MS,
): boolean {
  const stamps = stampsFor(cache);
  const cached = cache.get(key) as State | undefined;
  if (cached && cached.data !== undefined) {
    const stamp = stamps.get(key);
    return stamp?.kind === 'fetched' && now - stamp.at < freshMs;
  }
  if (fallback === undefined) return false;
  let stamp = stamps.get(key);
  if (!stamp || stamp.kind !== 'seeded' || !Object.is(stamp.value, fallback)) {
    // First time this cache sees this fallback value for the key: it was just
    // rendered by the server or delivered by a page payload.
    stamp = { kind: 'seeded', at: now, value: fallback };
    stamps.set(key, stamp);
  }
  return now - stamp.at < freshMs;
}

export function freshnessMiddleware(options: FreshnessOptions = {}): Middleware {
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? FRESH_MS;
  const middleware = (useSWRNext: SWRHook) =>
    ((key: Key, fetcher: BareFetcher<unknown> | null, config: SWRConfiguration & { cache?: Cache }) => {
      const serialized = swrKey(key);
      const cache = config.cache;
      if (!serialized || !cache) return useSWRNext(key, fetcher, config);

      const wrapped: BareFetcher<unknown> | null =
        fetcher &&
        ((...args: unknown[]) => {
          const result = fetcher(...args);
          if (result && typeof (result as PromiseLike<unknown>).then === 'function') {
            return Promise.resolve(result).then((value) => {
              markFetched(cache, serialized, now());
              return value;
            });
          }
          markFetched(cache, serialized, now());
          return result;
        });

      const fallback =
        config.fallbackData !== undefined
          ? config.fallbackData
          : (config.fallback as Record<string, unknown> | undefined)?.[serialized];
      const fresh = isFresh(cache, serialized, fallback, now(), freshMs);
      const effective = fresh ? { ...config, revalidateOnMount: false, revalidateIfStale: false } : config;
      return useSWRNext(key, wrapped, effective);
    }) as ReturnType<Middleware>;
  return middleware;
}

// ---------------------------------------------------------------------------
// The configuration

export type ApiKey = string | readonly [path: string, query?: Record<string, unknown>];

/** Default fetcher: SWR keys are API paths (relative to /api), optionally `[path, query]`. */
export function apiFetcher(key: ApiKey): Promise<unknown> {
  if (typeof key === 'string') return api(key);
  const [path, query] = key;
  return api(path, query ? { query } : {});
}

export interface SwrConfigOptions {
  fetcher?: BareFetcher<unknown>;
  now?: () => number;
  schedule?: Schedule;
  freshMs?: number;
  cacheTtlMs?: number;
}

export function createSwrConfig(options: SwrConfigOptions = {}): SWRConfiguration {
  const now = options.now ?? Date.now;
  const freshMs = options.freshMs ?? FRESH_MS;
  const config: SWRConfiguration = {
    dedupingInterval: freshMs,
    focusThrottleInterval: freshMs,
    revalidateIfStale: true,
    revalidateOnFocus: true,
    revalidateOnReconnect: true,
    errorRetryCount: MAX_ERROR_RETRIES,
    shouldRetryOnError: (error: unknown) => !isClientError(error),
    onErrorRetry: createOnErrorRetry({ schedule: options.schedule }) as SWRConfiguration['onErrorRetry'],
    provider: () => createSwrCache({ now, ttlMs: options.cacheTtlMs ?? CACHE_TTL_MS }),
    use: [freshnessMiddleware({ now, freshMs })],
  };
  if (options.fetcher) config.fetcher = options.fetcher;
  return config;
}

/** For `<SWRConfig value={swrConfig}>` (add `fallback` per render). */
export const swrConfig: SWRConfiguration = createSwrConfig({ fetcher: apiFetcher as BareFetcher<unknown> });
