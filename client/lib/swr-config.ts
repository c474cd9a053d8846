import { useEffect } from 'react';
import useSWR, {
  useSWRConfig,
  type BareFetcher,
  type Cache,
  type Key,
  type Middleware,
  type ScopedMutator,
  type SWRConfiguration,
  type State,
} from 'swr';
import { api } from './api.ts';

// The root's SWRConfig (client/components/root.tsx), with the spec's data rules (decision 0029).

/** Data is fresh this long: no request for a key within it, on mount, focus or reconnect. */
export const FRESH_MS = 5_000;
export const MAX_ERROR_RETRIES = 3;
/** Cache entries no hook has used for this long are dropped. */
export const UNUSED_MS = 300_000;

/** Before retry `attempt + 1` (attempt 0 first): 1000, 2000, 4000 ... ms, at most 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt), 30_000);
}

/** The HTTP status of an error: ofetch's `FetchError.statusCode` (or `status`, `response.status`). */
export function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const v of [e.statusCode, e.status, e.response?.status]) {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return undefined;
}

/** SWR's `retryCount` is 1 for the first retry. A 4xx will not change by asking again. */
export const onErrorRetry: NonNullable<SWRConfiguration['onErrorRetry']> = (error, _key, _config, revalidate, opts) => {
  const status = statusOf(error);
  if ((status !== undefined && status >= 400 && status < 500) || opts.retryCount > MAX_ERROR_RETRIES) return;
  setTimeout(() => void revalidate(opts), retryDelay(opts.retryCount - 1));
};

/** Keys are API paths (relative to `/api`); the API client retries a GET once on its own. */
export function apiFetcher<T>(path: string): Promise<T> {
  return api<T>(path);
}

interface Entry {
  state: State;
  usedAt: number;
}

/** SWR's cache: an entry no hook holds, unused for `unusedMs`, is dropped (one timer, oldest first). */
export class UnusedDroppingCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  private readonly holders = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly unusedMs = UNUSED_MS) {}

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  get(key: string): State | undefined {
    const entry = this.entries.get(key);
    if (entry) entry.usedAt = Date.now();
    return entry?.state;
  }

  set(key: string, state: State): void {
    this.entries.set(key, { state, usedAt: Date.now() });
    this.schedule();
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** A mounted hook uses `key` until the returned function is called. */
  hold(key: string): () => void {
    this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    return () => {
      const left = (this.holders.get(key) ?? 1) - 1;
      if (left > 0) this.holders.set(key, left);
      else this.holders.delete(key);
      this.get(key); // unused from now on
    };
  }

  private schedule(): void {
    // The server's renders fetch nothing and end: no timer there.
    if (this.timer !== undefined || this.entries.size === 0 || typeof window === 'undefined') return;
    let oldest = Infinity;
    for (const entry of this.entries.values()) oldest = Math.min(oldest, entry.usedAt);
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.sweep();
      },
      Math.max(0, oldest + this.unusedMs - Date.now()),
    );
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (this.holders.has(key)) entry.usedAt = now;
      else if (now - entry.usedAt >= this.unusedMs) this.entries.delete(key);
    }
    this.schedule();
  }
}

/** Every hook's key is held in the cache while the hook is mounted. */
const holdKeys: Middleware = (useSWRNext) =>
  function useHeldKey<Data, Error>(
    key: Key,
    fetcher: BareFetcher<Data> | null,
    config: SWRConfiguration<Data, Error, BareFetcher<Data>>,
  ) {
    const { cache } = useSWRConfig();
    // The site's keys are API and payload paths: strings.
    const serialized = typeof key === 'string' ? key : '';
    useEffect(
      () => (serialized && cache instanceof UnusedDroppingCache ? cache.hold(serialized) : undefined),
      [cache, serialized],
    );
    return useSWRNext<Data, Error>(key, fetcher, config);
  };

export const swrConfig = {
  fetcher: apiFetcher as BareFetcher,
  dedupingInterval: FRESH_MS,
  focusThrottleInterval: FRESH_MS,
  // A hook that mounts asks again, but SWR's dedupe makes that "when older than FRESH_MS".
  revalidateIfStale: true,
  revalidateOnFocus: true,
  revalidateOnReconnect: true,
  errorRetryCount: MAX_ERROR_RETRIES,
  onErrorRetry,
  provider: () => new UnusedDroppingCache(),
  use: [holdKeys],
} satisfies SWRConfiguration;

/** What the seeded keys hold: the data, and when it was the server's or the API's answer. */
export interface Dated<T> {
  data: T;
  at: number;
}

/** When each loader result was first seen: every hook reading it agrees on its age. */
const seenAt = new WeakMap<object, number>();

function arrivedAt(seed: unknown): number {
  if (typeof seed !== 'object' || seed === null) return Date.now();
  let at = seenAt.get(seed);
  if (at === undefined) seenAt.set(seed, (at = Date.now()));
  return at;
}

/**
 * SWR for data a loader brought (`seed`): fresh for FRESH_MS from its arrival, so hydration asks
 * nothing; the later of seed and SWR's data is shown. The server shows the seed without the hooks.
 */
export const useSeededSWR: <T>(key: string, fetcher: (key: string) => Promise<T>, seed: T) => T =
  typeof document === 'undefined' ? (_key, _fetcher, seed) => seed : useSeededSWRInBrowser;

function useSeededSWRInBrowser<T>(key: string, fetcher: (key: string) => Promise<T>, seed: T): T {
  const at = arrivedAt(seed);
  const answer = (asked: string): Promise<Dated<T>> =>
    Date.now() - at < FRESH_MS
      ? Promise.resolve({ data: seed, at })
      : fetcher(asked).then((data) => ({ data, at: Date.now() }));
  const { data } = useSWR<Dated<T>>(key, answer, { fallbackData: { data: seed, at } });
  return data && data.at > at ? data.data : seed;
}

/** The root's SWR cache with its `mutate`, once mounted: the current user's store. */
export interface RootCache {
  cache: Cache;
  mutate: ScopedMutator;
}

let bound: RootCache | undefined;

/** Bound by the root (`useBindRootCache`); undefined before it mounts. */
export const rootCache = (): RootCache | undefined => bound;

/** Inside the root's SWRConfig: code outside components (loaders, prefetch, forms) reads and changes its cache. */
export function useBindRootCache(): void {
  const config = useSWRConfig();
  useEffect(() => {
    bound = config;
    // Unmounted, SWR lets go of the cache's state: writing to it then would throw.
    return () => void (bound = undefined);
  }, [config]);
}

/** An API answer already says what a seeded `key` holds now: shown at once, no request. */
export async function setCached(key: string, data: unknown): Promise<void> {
  await bound?.mutate(key, { data, at: Date.now() } satisfies Dated<unknown>, { revalidate: false });
}
