import { type CounterState, WindowCounters } from './window-counters.ts';

export interface MemoryCountersOptions {
  /** Keys each limit counts exactly; past it, approximately (decision 0045). */
  capacity: number;
  overflowing(limit: string): void;
  /** Tests hold time still. */
  now?: () => number;
}

/** Every key is `<limit>:<value>` (plugins/rate-limits.ts). */
function limitOf(key: string): string {
  const colon = key.indexOf(':');
  return colon === -1 ? key : key.slice(0, colon);
}

/** Each limit's counters, bounded apart, so a flood of one kind never takes another's room. */
export class MemoryCounters {
  readonly #limits = new Map<string, WindowCounters>();
  readonly #options: MemoryCountersOptions;
  readonly #now: () => number;

  constructor(options: MemoryCountersOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  incr(key: string, windowMs: number, max: number): CounterState {
    const limit = limitOf(key);
    let counters = this.#limits.get(limit);
    if (!counters) {
      counters = new WindowCounters(this.#options.capacity, windowMs);
      this.#limits.set(limit, counters);
    }
    const now = this.#now();
    const state = counters.incr(key, now, max);
    if (counters.overflowing(now)) this.#options.overflowing(limit);
    return state;
  }

  read(key: string, max: number): CounterState {
    return this.#limits.get(limitOf(key))?.read(key, this.#now(), max) ?? { current: 0, ttl: 0 };
  }

  decr(key: string): void {
    this.#limits.get(limitOf(key))?.decr(key, this.#now());
  }

  sizes(): Array<[limit: string, keys: number]> {
    return [...this.#limits].map(([limit, counters]) => [limit, counters.size]);
  }
}
