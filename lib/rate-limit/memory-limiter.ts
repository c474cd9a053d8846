import { WindowCounters } from './window-counters.ts';

/** What a refusal says, named as in rate-limiter-flexible's `RateLimiterRes`, so either stands for the other. */
export interface LimitState {
  msBeforeNext: number;
}

export interface MemoryLimiterOptions {
  /** The limit's name: its counters are its own, so a flood of one kind never takes another's room. */
  keyPrefix: string;
  points: number;
  windowMs: number;
  /** Keys counted exactly; past it, approximately (decision 0045). */
  capacity: number;
  overflowing(limit: string): void;
  now?: () => number;
}

/**
 * One limit's counters in this process, alone or insuring rate-limiter-flexible's Redis limiter:
 * the library's own memory limiter keeps every key, which a flood of addresses would fill.
 */
export class MemoryLimiter {
  readonly keyPrefix: string;
  readonly #counters: WindowCounters;
  readonly #options: MemoryLimiterOptions;
  readonly #now: () => number;

  constructor(options: MemoryLimiterOptions) {
    this.keyPrefix = options.keyPrefix;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#counters = new WindowCounters(options.capacity, options.windowMs);
  }

  get size(): number {
    return this.#counters.size;
  }

  consume(key: string | number): Promise<LimitState> {
    const now = this.#now();
    const { points } = this.#options;
    const { current, ttl } = this.#counters.incr(String(key), now, points);
    if (this.#counters.overflowing(now)) this.#options.overflowing(this.keyPrefix);
    const state: LimitState = { msBeforeNext: ttl };
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- rate-limiter-flexible's protocol: a refusal rejects with its state
    return current > points ? Promise.reject(state) : Promise.resolve(state);
  }

  reward(key: string | number): Promise<unknown> {
    this.#counters.decr(String(key), this.#now());
    return Promise.resolve();
  }
}

/** A refusal (the state a limiter rejects with past its points), not a fault. */
export const isRefusal = (outcome: unknown): outcome is LimitState =>
  typeof (outcome as LimitState | null)?.msBeforeNext === 'number';
