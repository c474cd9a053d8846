/**
 * A small least-recently-used cache bounded by entry count and by total size, with a
 * time-to-live per entry. Enough for icon responses; not a general-purpose cache.
 */
export class LruCache<V> {
  readonly #entries = new Map<string, { value: V; size: number; expiresAt: number }>();
  #bytes = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number = Number.POSITIVE_INFINITY,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    // Move to the most recently used end.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, { ttlMs, size = 1 }: { ttlMs: number; size?: number }): void {
    this.delete(key);
    if (size > this.maxBytes || this.maxEntries <= 0) return;
    this.#entries.set(key, { value, size, expiresAt: this.now() + ttlMs });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }
}
