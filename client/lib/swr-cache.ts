import type { Cache, State } from 'swr';
import { SWRGlobalState } from 'swr/_internal';

/**
 * SWR's cache provider (client/lib/swr-config.ts explains the spec's constants): unused data is
 * discarded after 5 minutes. Every entry remembers its last access (get/set); entries not accessed
 * for `ttlMs` are dropped unless a mounted hook or a request in flight still uses the key. Sweeps
 * run on access (at most once per `sweepEveryMs`) and on demand (`sweep()`, `startSweeper()`).
 */

export const CACHE_TTL_MS = 300_000;
export const CACHE_SWEEP_EVERY_MS = 60_000;

/** When a key's data was fetched, or seen as `fallback` (swr-config.ts's freshness middleware). */
export interface Stamp {
  kind: 'fetched' | 'seeded';
  at: number;
  /** For seeded stamps: the fallback value the stamp belongs to. */
  value?: unknown;
}

const stampsByCache = new WeakMap<object, Map<string, Stamp>>();

export function stampsFor(cache: object): Map<string, Stamp> {
  let stamps = stampsByCache.get(cache);
  if (!stamps) {
    stamps = new Map();
    stampsByCache.set(cache, stamps);
  }
  return stamps;
}

/** Record a successful fetch of `key` in `cache` now (the middleware does this for every fetch). */
export function markFetched(cache: object, key: string, at: number): void {
  stampsFor(cache).set(key, { kind: 'fetched', at });
}

export function forgetFreshness(cache: object, key: string): void {
  stampsByCache.get(cache)?.delete(key);
}


export interface SwrCacheOptions {
  now?: () => number;
  ttlMs?: number;
  sweepEveryMs?: number;
  /** Is the key still used (mounted hook, request in flight)? Such entries are never dropped. */
  isInUse?: (key: string) => boolean;
}

interface Entry {
  state: State;
  lastAccess: number;
}

export class SwrCache implements Cache<any> {
  readonly ttlMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly sweepEveryMs: number;
  private readonly inUse: (key: string) => boolean;
  private lastSweep: number;

  constructor(options: SwrCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? CACHE_TTL_MS;
    this.sweepEveryMs = options.sweepEveryMs ?? CACHE_SWEEP_EVERY_MS;
    this.inUse = options.isInUse ?? ((key) => usedBySwr(this, key));
    this.lastSweep = this.now();
  }

  get size(): number {
    return this.entries.size;
  }

  keys(): IterableIterator<string> {
    this.maybeSweep();
    return this.entries.keys();
  }

  get(key: string): State | undefined {
    this.maybeSweep();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (this.isExpired(key, entry, now)) {
      this.drop(key);
      return undefined;
    }
    entry.lastAccess = now;
    return entry.state;
  }

  set(key: string, value: State): void {
    this.maybeSweep();
    this.entries.set(key, { state: value, lastAccess: this.now() });
  }

  delete(key: string): void {
    this.drop(key);
  }

  /** Drop every entry not accessed for `ttlMs` and not in use. Returns the dropped keys. */
  sweep(): string[] {
    const now = this.now();
    this.lastSweep = now;
    const dropped: string[] = [];
    for (const [key, entry] of this.entries) {
      if (this.isExpired(key, entry, now)) dropped.push(key);
    }
    for (const key of dropped) this.drop(key);
    return dropped;
  }

  /** Sweep on a timer too (browser only, optional). Returns a function that stops it. */
  startSweeper(
    everyMs: number = this.sweepEveryMs,
    timers: { setInterval: (fn: () => void, ms: number) => unknown; clearInterval: (h: any) => void } = {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h),
    },
  ): () => void {
    const handle = timers.setInterval(() => this.sweep(), everyMs);
    return () => timers.clearInterval(handle);
  }

  private isExpired(key: string, entry: Entry, now: number): boolean {
    if (now - entry.lastAccess < this.ttlMs) return false;
    if (this.inUse(key)) {
      entry.lastAccess = now; // in use counts as use
      return false;
    }
    return true;
  }

  private drop(key: string): void {
    this.entries.delete(key);
    forgetFreshness(this, key);
  }

  private maybeSweep(): void {
    if (this.now() - this.lastSweep >= this.sweepEveryMs) this.sweep();
  }
}

/** Mounted hooks (revalidators) or a request in flight for `key` in SWR's state for this cache. */
function usedBySwr(cache: Cache, key: string): boolean {
  const state = SWRGlobalState.get(cache) as unknown as
    | [Record<string, unknown[] | undefined>, unknown, Record<string, unknown>]
    | undefined;
  if (!state) return false;
  const revalidators = state[0][key];
  return (revalidators !== undefined && revalidators.length > 0) || state[2][key] !== undefined;
}

export function createSwrCache(options: SwrCacheOptions = {}): SwrCache {
  return new SwrCache(options);
}
