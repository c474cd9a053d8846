/** A counter's state as @fastify/rate-limit's stores report it. */
export interface CounterState {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * The fixed-window counters of one limit in this process's memory, at most `capacity` keys. A
 * window that is still counting is never dropped for room (decision 0036): when every key is live,
 * a new key is refused (`undefined`) until the oldest window ends. Every window of a limit has the
 * same length and an entry is re-inserted when its window restarts, so the Map's order is the
 * order windows end in: the expired ones are always at its front, and dropping them is O(1) each.
 */
export class WindowCounters {
  readonly #windows = new Map<string, Window>();
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get size(): number {
    return this.#windows.size;
  }

  /** Counts one for `key`; `undefined` when the key is new and every place holds a live window. */
  incr(key: string, windowMs: number, now: number): CounterState | undefined {
    const window = this.#live(key, now);
    if (window) {
      window.count += 1;
      return { current: window.count, ttl: window.endsAt - now };
    }
    this.#dropExpired(now);
    if (this.#windows.size >= this.capacity) return undefined;
    this.#windows.set(key, { count: 1, endsAt: now + windowMs });
    return { current: 1, ttl: windowMs };
  }

  read(key: string, now: number): CounterState {
    const window = this.#live(key, now);
    return window ? { current: window.count, ttl: window.endsAt - now } : { current: 0, ttl: 0 };
  }

  /** Takes one back (an attempt that turned out not to count); never below zero. */
  decr(key: string, now: number): void {
    const window = this.#live(key, now);
    if (window && window.count > 0) window.count -= 1;
  }

  /** Milliseconds until a place frees: when the oldest window ends. */
  untilRoom(now: number): number {
    for (const window of this.#windows.values()) return Math.max(0, window.endsAt - now);
    return 0;
  }

  #live(key: string, now: number): Window | undefined {
    const window = this.#windows.get(key);
    if (!window) return undefined;
    if (window.endsAt > now) return window;
    this.#windows.delete(key);
    return undefined;
  }

  #dropExpired(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.endsAt > now) return;
      this.#windows.delete(key);
    }
  }
}
