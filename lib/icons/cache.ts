import { LRUCache } from 'lru-cache';

/**
 * The icon caches (lru-cache): least recently used out first, bounded by entries and, when
 * `maxBytes` is given, by the sizes set with each entry; each entry has its own time to live.
 * An entry larger than the byte bound is not kept (and evicts nothing).
 */
export function iconCache<V extends {}>(maxEntries: number, maxBytes?: number, now?: () => number): LRUCache<string, V> {
  return new LRUCache<string, V>({
    max: maxEntries,
    ...(maxBytes === undefined ? {} : { maxSize: maxBytes }),
    // Expiry is checked against the clock on every read (a clock the tests move, too).
    ttlResolution: 0,
    ...(now ? { perf: { now } } : {}),
  });
}
