import { type CounterState, WindowCounters } from './window-counters.ts';

export interface MemoryCountersOptions {
  capacityOf(limit: string): number;
  /** At each refusal of a new key for want of room. */
  full(limit: string): void;
}

/** Every key is `<limit>:<value>` (plugins/rate-limits.ts). */
function limitOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}

/** Each limit's counters, bounded apart; a key refused for room reads as one past `max`. */
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
