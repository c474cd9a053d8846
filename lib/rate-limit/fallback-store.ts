import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/** The store interface @fastify/rate-limit calls (`incr`, `read`, `child`). */
interface Store {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): Store;
}
type StoreCallback = (error: Error | null, result: { current: number; ttl: number } | null) => void;
type StoreConstructor<Args extends unknown[]> = new (...args: Args) => Store;

// The library's own stores (no `exports` map, so their files are part of its public layout).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor<[boolean, boolean, Redis, string]>;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor<[boolean, boolean, number?]>;

export interface FallbackEvents {
  /** Redis failed (or is not connected): counting moves to this process's memory. */
  degraded(error: Error): void;
  /** Redis answered again: counting is shared again. */
  recovered(): void;
}

/**
 * The rate-limit store when REDIS_URL is set: the counters live in Redis, shared by every
 * replica; while Redis cannot answer, each replica counts in its own memory (fail open to
 * per-replica limits, docs/decisions/0010) and goes back to Redis as soon as it answers.
 * `events` hears each change of state once, not once per request.
 */
export function fallbackStore(redis: Redis, nameSpace: string, events: FallbackEvents) {
  const state = { degraded: false };
  const degrade = (error: Error) => {
    if (state.degraded) return;
    state.degraded = true;
    events.degraded(error);
  };
  const recover = () => {
    if (!state.degraded) return;
    state.degraded = false;
    events.recovered();
  };

  class FallbackStore implements Store {
    readonly #shared: Store;
    readonly #local: Store;
    constructor(shared: Store, local: Store) {
      this.#shared = shared;
      this.#local = local;
    }
    #run(method: 'incr' | 'read', key: string, callback: StoreCallback, timeWindow: number, max: number) {
      // Not connected (ioredis reconnects in the background): no point sending the command.
      if (redis.status !== 'ready') {
        degrade(new Error(`Redis is ${redis.status}`));
        this.#local[method](key, callback, timeWindow, max);
        return;
      }
      this.#shared[method](
        key,
        (error, result) => {
          if (error) {
            degrade(error);
            this.#local[method](key, callback, timeWindow, max);
            return;
          }
          recover();
          callback(null, result);
        },
        timeWindow,
        max,
      );
    }
    incr(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      this.#run('incr', key, callback, timeWindow, max);
    }
    read(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      this.#run('read', key, callback, timeWindow, max);
    }
    child(routeOptions: Record<string, unknown> & { continueExceeding: boolean; exponentialBackoff: boolean }): Store {
      // Every limit is made with createRateLimit and keys that name it (`login-ip:<address>`). The
      // library's child would put the route's method and URL in front, which such a limit does
      // not have ("undefinedundefined-login-ip:..."): keys stay `<namespace><name>:<value>`.
      // Keys under the old names are never read again and expire with their windows.
      const shared = new RedisStore(routeOptions.continueExceeding, routeOptions.exponentialBackoff, redis, nameSpace);
      return new FallbackStore(shared, this.#local.child(routeOptions));
    }
  }

  /** What `store:` takes: constructed by the plugin with its global settings. */
  class RootFallbackStore extends FallbackStore {
    constructor(settings: { continueExceeding: boolean; exponentialBackoff: boolean }) {
      super(
        new RedisStore(settings.continueExceeding, settings.exponentialBackoff, redis, nameSpace),
        new LocalStore(settings.continueExceeding, settings.exponentialBackoff),
      );
    }
  }
  return { Store: RootFallbackStore, isDegraded: () => state.degraded };
}
