/** A counter's state as @fastify/rate-limit's stores report it (`ttl`: ms left). */
export interface CounterState {
  current: number;
  ttl: number;
}

interface Window {
  count: number;
  endsAt: number;
}

/**
 * One limit's fixed windows in memory, at most `capacity` keys; a live window is never dropped for
 * room (decision 0036). All windows have one length and restart by re-insertion, so the Map is in
 * the order they end: the ended ones sit at its front.
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

  decr(key: string, now: number): void {
    const window = this.#live(key, now);
    if (window && window.count > 0) window.count -= 1;
  }

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
