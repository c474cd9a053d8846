import { type CounterState, WindowCounters } from './window-counters.ts';

export interface MemoryCountersOptions {
  /** Keys a limit may count at once; a limit's name is its keys' prefix up to the first ':'. */
  capacityOf(limit: string): number;
  /** A limit refused a new key for want of room (at each refusal). */
  full(limit: string): void;
}

/** The name of the limit a key belongs to: every key is `<limit>:<value>` (plugins/rate-limits.ts). */
export function limitOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}

/**
 * Every limit's counters in this process's memory, each limit bounded apart so that a flood of
 * one kind of key never takes another's room (decision 0036). A key refused for room reads as one
 * past `max`: the request is refused, as it would be past the limit.
 */
export class MemoryCounters {
  readonly #limits = new Map<string, WindowCounters>();
  readonly #options: MemoryCountersOptions;

  constructor(options: MemoryCountersOptions) {
    this.#options = options;
  }

  incr(key: string, windowMs: number, max: number): CounterState {
    const now = Date.now();
    const counters = this.#counters(key);
    const state = counters.incr(key, windowMs, now);
    if (state) return state;
    this.#options.full(limitOf(key));
    return { current: max + 1, ttl: Math.max(1000, counters.untilRoom(now)) };
  }

  read(key: string): CounterState {
    return this.#limits.get(limitOf(key))?.read(key, Date.now()) ?? { current: 0, ttl: 0 };
  }

  decr(key: string): void {
    this.#limits.get(limitOf(key))?.decr(key, Date.now());
  }

  /** Keys counted now, by limit (the metrics). */
  sizes(): Array<[limit: string, keys: number]> {
    return [...this.#limits].map(([limit, counters]) => [limit, counters.size]);
  }

  #counters(key: string): WindowCounters {
    const limit = limitOf(key);
    let counters = this.#limits.get(limit);
    if (!counters) {
      counters = new WindowCounters(this.#options.capacityOf(limit));
      this.#limits.set(limit, counters);
    }
    return counters;
  }
}
