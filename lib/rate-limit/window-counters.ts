import { createHash, randomBytes } from 'node:crypto';

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
 * One limit's counters (decision 0045): `capacity` keys exactly, in fixed windows never dropped while
 * live (re-inserted on restart, so the Map is in end order); past that, a sketch that never counts low.
 */
export class WindowCounters {
  readonly #windows = new Map<string, Window>();
  #overflow: OverflowCounts | undefined;
  readonly capacity: number;
  readonly windowMs: number;

  constructor(capacity: number, windowMs: number) {
    this.capacity = capacity;
    this.windowMs = windowMs;
  }

  get size(): number {
    return this.#windows.size;
  }

  overflowing(now: number): boolean {
    return this.#overflowAt(now) !== undefined;
  }

  /** `max` only shapes `ttl`: how long until a count past it drops to it. */
  incr(key: string, now: number, max: number): CounterState {
    const window = this.#live(key, now);
    if (window) {
      window.count += 1;
      return { current: window.count, ttl: window.endsAt - now };
    }
    const overflow = this.#overflowAt(now);
    const cells = overflow?.cellsOf(key);
    // A key the sketch holds stays there while it counts: room made meanwhile never resets it.
    if (overflow && overflow.estimate(cells!, now, max).current > 0) return overflow.incr(cells!, now, max);
    this.#dropExpired(now);
    if (this.#windows.size < this.capacity) {
      this.#windows.set(key, { count: 1, endsAt: now + this.windowMs });
      return { current: 1, ttl: this.windowMs };
    }
    this.#overflow ??= new OverflowCounts(this.windowMs);
    return this.#overflow.incr(cells ?? this.#overflow.cellsOf(key), now, max);
  }

  read(key: string, now: number, max: number): CounterState {
    const window = this.#live(key, now);
    if (window) return { current: window.count, ttl: window.endsAt - now };
    const overflow = this.#overflowAt(now);
    return overflow?.estimate(overflow.cellsOf(key), now, max) ?? { current: 0, ttl: 0 };
  }

  decr(key: string, now: number): void {
    const window = this.#live(key, now);
    if (window) {
      if (window.count > 0) window.count -= 1;
    } else {
      const overflow = this.#overflowAt(now);
      overflow?.decr(overflow.cellsOf(key), now);
    }
  }

  #overflowAt(now: number): OverflowCounts | undefined {
    if (this.#overflow?.ended(now)) this.#overflow = undefined;
    return this.#overflow;
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

/** 2 windows x 4 rows x 2^18 one-byte cells = 2 MiB, sized in decision 0045. */
const rows = 4;
const cellsPerRow = 1 << 18;
const saturated = 255;

/**
 * A count-min sketch of this window and the one before (a count lives one to two windows): a key's
 * count is the smallest of its cells, which other keys can only raise; a secret hash picks them.
 */
class OverflowCounts {
  readonly #secret = randomBytes(16);
  readonly #windowMs: number;
  #current = new Uint8Array(rows * cellsPerRow);
  #previous = new Uint8Array(rows * cellsPerRow);
  /** Window numbers (time / length): the one `#current` counts, and the last counted in. */
  #window = -1;
  #lastCounted = -1;

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  ended(now: number): boolean {
    return Math.floor(now / this.#windowMs) > this.#lastCounted + 1;
  }

  cellsOf(key: string): number[] {
    const digest = createHash('sha256').update(this.#secret).update(key).digest();
    return Array.from({ length: rows }, (_, row) => row * cellsPerRow + (digest.readUInt32LE(row * 4) % cellsPerRow));
  }

  incr(cells: number[], now: number, max: number): CounterState {
    this.#turn(now);
    for (const cell of cells) if (this.#current[cell]! < saturated) this.#current[cell]! += 1;
    this.#lastCounted = this.#window;
    return this.estimate(cells, now, max);
  }

  estimate(cells: number[], now: number, max: number): CounterState {
    this.#turn(now);
    const current = smallest(this.#current, cells);
    const previous = smallest(this.#previous, cells);
    if (current + previous === 0) return { current: 0, ttl: 0 };
    const windowEnds = (this.#window + 1) * this.#windowMs;
    const ttl = current > max ? windowEnds + this.#windowMs - now : windowEnds - now;
    return { current: current + previous, ttl };
  }

  decr(cells: number[], now: number): void {
    this.#turn(now);
    const counts = [this.#current, this.#previous].find((window) => smallest(window, cells) > 0);
    if (!counts) return;
    for (const cell of cells) if (counts[cell]! > 0 && counts[cell]! < saturated) counts[cell]! -= 1;
  }

  #turn(now: number): void {
    const window = Math.floor(now / this.#windowMs);
    if (window <= this.#window) return; // a clock set back counts on in the same windows
    if (window === this.#window + 1) {
      [this.#previous, this.#current] = [this.#current, this.#previous];
      this.#current.fill(0);
    } else {
      this.#current.fill(0);
      this.#previous.fill(0);
    }
    this.#window = window;
  }
}

function smallest(counts: Uint8Array, cells: number[]): number {
  let least = saturated;
  for (const cell of cells) least = Math.min(least, counts[cell]!);
  return least;
}
