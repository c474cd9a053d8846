import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { MemoryCounters } from './memory-counters.ts';
import type { CounterState } from './window-counters.ts';

type StoreCallback = (error: Error | null, result: CounterState | null) => void;

/** @fastify/rate-limit's custom-store interface (its `store` option). */
interface Store {
  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: Record<string, unknown>): Store;
}

// The library's Redis store (no `exports` map, so its files are part of its public layout).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store;

// A refund never takes a counter below zero, nor makes one that has ended.
const refundScript = `
local current = redis.call('GET', KEYS[1])
if current and tonumber(current) > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

export interface SharedCounters {
  redis: Redis;
  /** Prefix of every key in Redis. */
  namespace: string;
  degraded(error: Error): void;
  recovered(): void;
}

export interface CounterStore {
  /** What `store:` takes: the plugin constructs it, and every limit's child is the store itself. */
  Store: new () => Store;
  /** Takes back one count of `key` (a reserved attempt that turned out not to count). */
  refund(key: string): Promise<void>;
  isDegraded(): boolean;
}

/**
 * The limits' counters: in this process's memory, or in Redis shared by the replicas and, while
 * Redis cannot answer, in memory again (decision 0010). `shared` hears each change of state once,
 * not once per request. Keys name their limit (`login-ip:<address>`), so no child prefixes them.
 */
export function counterStore(memory: MemoryCounters, shared?: SharedCounters): CounterStore {
  const redisStore = shared && new RedisStore(false, false, shared.redis, shared.namespace);
  const state = { degraded: false };
  const degrade = (error: Error) => {
    if (state.degraded || !shared) return;
    state.degraded = true;
    shared.degraded(error);
  };
  const recover = () => {
    if (!state.degraded || !shared) return;
    state.degraded = false;
    shared.recovered();
  };
  const redisReady = () => {
    if (!shared) return false;
    if (shared.redis.status === 'ready') return true;
    // Not connected (ioredis reconnects in the background): no point sending the command.
    degrade(new Error(`Redis is ${shared.redis.status}`));
    return false;
  };

  class CountersStore implements Store {
    incr(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      if (!redisStore || !redisReady()) return callback(null, memory.incr(key, timeWindow, max));
      redisStore.incr(
        key,
        (error, result) => {
          if (error) {
            degrade(error);
            return callback(null, memory.incr(key, timeWindow, max));
          }
          recover();
          callback(null, result);
        },
        timeWindow,
        max,
      );
    }
    read(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      if (!redisStore || !redisReady()) return callback(null, memory.read(key, max));
      redisStore.read(
        key,
        (error, result) => {
          if (error) {
            degrade(error);
            return callback(null, memory.read(key, max));
          }
          recover();
          callback(null, result);
        },
        timeWindow,
        max,
      );
    }
    child(): Store {
      return this;
    }
  }

  async function refund(key: string) {
    if (!shared || !redisReady()) return memory.decr(key);
    try {
      await shared.redis.eval(refundScript, 1, shared.namespace + key);
      recover();
    } catch (error) {
      degrade(error as Error);
      memory.decr(key);
    }
  }

  return { Store: CountersStore, refund, isDegraded: () => state.degraded };
}
