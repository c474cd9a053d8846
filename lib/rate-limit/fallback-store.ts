import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/** What @fastify/rate-limit calls. */
interface Store {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): Store;
}
type StoreCallback = (error: Error | null, result: { current: number; ttl: number } | null) => void;
type StoreConstructor<Args extends unknown[]> = new (...args: Args) => Store;

// The library's own stores (no `exports` map, so their files are part of its public layout).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as StoreConstructor<
  [boolean, boolean, Redis, string]
>;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as StoreConstructor<[boolean, boolean, number?]>;

export interface FallbackEvents {
  degraded(error: Error): void;
  recovered(): void;
}

/**
 * Counters in Redis, shared by the replicas; while Redis cannot answer, each replica counts in its
 * own memory (decision 0010). `events` hears each change of state once, not once per request.
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
      // Keys name their limit (`login-ip:<address>`); the library's child would prefix the route's
      // method and URL, which createRateLimit's limits do not have ("undefinedundefined-login-ip:").
      const shared = new RedisStore(routeOptions.continueExceeding, routeOptions.exponentialBackoff, redis, nameSpace);
      return new FallbackStore(shared, this.#local.child(routeOptions));
    }
  }

  /** What `store:` takes: the plugin constructs it with its global settings. */
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
