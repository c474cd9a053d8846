import { LRUCache } from 'lru-cache';

/** Bounded by entries and, with `maxBytes`, by the sizes set with each entry; an entry larger is not kept. */
export function iconCache<V extends NonNullable<unknown>>(
  maxEntries: number,
  maxBytes?: number,
  now?: () => number,
): LRUCache<string, V> {
  return new LRUCache<string, V>({
    max: maxEntries,
    ...(maxBytes === undefined ? {} : { maxSize: maxBytes }),
    // Expiry checked against the clock on every read.
    ttlResolution: 0,
    ...(now ? { perf: { now } } : {}),
  });
}
