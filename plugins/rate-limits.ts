import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis as RedisClient } from 'ioredis';
import { Gauge } from 'prom-client';
import { addressMatcher } from '../lib/address-list.ts';
import { ConfigError } from '../lib/config.ts';
import { HttpError } from '../contract/http-error.ts';
import { counterStore, type SharedCounters } from '../lib/rate-limit/counter-store.ts';
import { MemoryCounters } from '../lib/rate-limit/memory-counters.ts';
import {
  memoryKeys,
  type RateLimitRule,
  type RateLimitSettings,
  rateLimitSettings,
} from '../lib/rate-limit/settings.ts';

export interface RateLimitsPluginOptions {
  /** Limits other than lib/rate-limit/settings.ts's (tests). */
  limits?: Partial<RateLimitSettings>;
  /** Prefix of the keys in Redis (tests isolate themselves with it). */
  namespace?: string;
  /** The clock of the counters in memory (tests hold time still). */
  now?: () => number;
}

/** Checks one limit for one key; throws HttpError 429 RATE_LIMITED (with Retry-After) past it. */
export type KeyedLimit = (request: FastifyRequest, key: string) => Promise<void>;
/** Usable as an `onRequest` hook or called directly, one counter either way. */
export type RequestLimit = (request: FastifyRequest) => Promise<void>;

export type Refund = () => Promise<void>;

/** Failures per key: counted before the outcome is known, so attempts at once never pass the limit. */
export interface FailureLimit {
  /** Counts one attempt; past the limit throws 429 (counting nothing) unless `enforce: false`. */
  reserve(request: FastifyRequest, key: string, options?: { enforce?: boolean }): Promise<Refund>;
}

export interface RateLimits {
  readonly settings: RateLimitSettings;
  /** The client address as the limits count it (IPv6 by its /64 network). */
  addressOf(request: FastifyRequest): string;
  allowListed(request: FastifyRequest): boolean;
  /** A limit per client address; `label` names it in the metrics, `allowList` lets load generators skip it. */
  perIp(
    name: string,
    rule: RateLimitRule,
    options?: { label?: string; allowList?: boolean; message?: (seconds: number) => string },
  ): RequestLimit;
  /** Hash personal keys such as emails with `limitKey`; create at registration time. */
  keyed(name: string, rule: RateLimitRule): KeyedLimit;
  failures(name: string, rule: RateLimitRule): FailureLimit;
  /** Counts each call; true while the calls in the window are within `rule.max` (never throws). */
  quota(name: string, rule: RateLimitRule): (request: FastifyRequest, key: string) => Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

const attempts = (seconds: number) => `Too many attempts. Try again in ${seconds} seconds.`;

function rateLimited(retryAfterSeconds: number, message = attempts): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'RATE_LIMITED', message(seconds), undefined, { 'retry-after': String(seconds) });
}

/**
 * One @fastify/rate-limit store: counters in memory, bounded per limit (decision 0036), or in
 * Redis at REDIS_URL, falling back to memory while Redis is away (decision 0010).
 */
export default fp<RateLimitsPluginOptions>(
  async (app, options) => {
    const settings = rateLimitSettings(app.config, options.limits);
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;

    const lastOverflowLog = new Map<string, number>();
    const memory = new MemoryCounters({
      capacity: memoryKeys,
      ...(options.now ? { now: options.now } : {}),
      overflowing(limit) {
        const now = Date.now();
        if ((lastOverflowLog.get(limit) ?? -Infinity) > now - 60_000) return;
        lastOverflowLog.set(limit, now);
        app.log.warn(
          { limit, keys: memoryKeys },
          'rate limit: more keys than memory counts exactly; new keys are counted approximately (never fewer) until the flood ends',
        );
      },
    });
    const shared = app.config.redisUrl ? await connectRedis(app.config.redisUrl) : undefined;
    const store = counterStore(memory, shared);

    async function connectRedis(url: string): Promise<SharedCounters> {
      // Loaded only here: a replica without Redis does not carry the client (decision 0022).
      // Its module.exports, the client class (CommonJS on demand: lib/tracing.ts says why).
      const Redis = (await import('ioredis')).default as unknown as typeof RedisClient;
      const redis = new Redis(url, {
        lazyConnect: true,
        // Fail fast when Redis is away: the store then counts in memory and no request waits.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        connectTimeout: 5000,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      // ioredis reports every failed reconnection; the store logs the change of state once.
      let lastError: NodeJS.ErrnoException | undefined;
      redis.on('error', (error: NodeJS.ErrnoException) => {
        lastError = error;
        app.log.debug({ err: error }, 'redis (rate limits) connection error');
      });
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        const where = URL.canParse(url) ? new URL(url).host : 'its address';
        // connect() rejects with "Connection is closed."; the socket's error says why.
        const why = lastError?.code ?? (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new ConfigError(
          `REDIS_URL (${where}) cannot be reached (${why}): is Redis running there? The rate limits need it at start; later outages fall back to memory.`,
          { cause: error },
        );
      }
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      return {
        redis,
        namespace: options.namespace ?? 'rate-limit:',
        degraded: (error) =>
          app.log.error(
            { err: error },
            'rate limits: Redis is unreachable; counting in this process until it is back (limits are per replica meanwhile)',
          ),
        recovered: () => app.log.info('rate limits: Redis answers again; counters are shared again'),
      };
    }

    if (metrics) {
      new Gauge({
        name: 'rate_limit_memory_keys',
        help: 'Keys each limit counts exactly in this process (memory; past the bound, approximately: decision 0045).',
        labelNames: ['limit'],
        registers: [metrics.registry],
        collect() {
          for (const [limit, keys] of memory.sizes()) this.set({ limit }, keys);
        },
      });
      if (shared) {
        const isDegraded = () => store.isDegraded();
        new Gauge({
          name: 'rate_limit_store_degraded',
          help: '1 while Redis does not answer and rate limits count in this process (docs/decisions/0010).',
          registers: [metrics.registry],
          collect() {
            this.set(isDegraded() ? 1 : 0);
          },
        });
      }
    }
    await app.register(rateLimit, {
      global: false,
      store: store.Store as never,
      errorResponseBuilder: (_request, context) => rateLimited(context.ttl / 1000),
    });

    type Limiter = ReturnType<typeof app.createRateLimit>;
    function refuse(label: string, retryAfterSeconds: number, message?: (seconds: number) => string): HttpError {
      metrics?.rateLimitRefusals.inc({ limit: label });
      return rateLimited(retryAfterSeconds, message);
    }
    // The store falls back to memory by itself when Redis fails: anything thrown here is a bug,
    // logged, and lets the request through.
    async function consult(limiter: Limiter, request: FastifyRequest, increment = true) {
      try {
        return await limiter(request, { increment });
      } catch (error) {
        request.log.warn({ err: error }, 'rate limit check failed; request allowed');
        return null;
      }
    }
    function declare(name: string) {
      if (name.includes(':')) throw new Error(`A limit's name holds no ':' (${name})`);
    }
    const keyOf = (name: string, value: string) => `${name}:${value}`;
    /** A limiter whose key is the value the caller set on the request under `name`. */
    function keyedLimiter(name: string, rule: RateLimitRule) {
      declare(name);
      const key = Symbol(name);
      type WithKey = FastifyRequest & { [key]?: string };
      const limiter = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => keyOf(name, (request as WithKey)[key] ?? ''),
      });
      return (request: FastifyRequest, value: string, increment = true) => {
        (request as WithKey)[key] = value;
        return consult(limiter, request, increment);
      };
    }

    // A request whose connection is already gone has no address; the limiter must not throw on it.
    const ipKey = (request: FastifyRequest) => (request.ip ? normalizeIP(request.ip) : 'unknown');
    // RATE_LIMIT_ALLOW_LIST: an operator's load generator; per-account failure limits still apply.
    const allowListed = addressMatcher(app.config.rateLimitAllowList);
    const allowList = (request: FastifyRequest) => allowListed(request.ip ?? '');
    const nothing: Refund = async () => {};

    app.decorate('rateLimits', {
      settings,
      addressOf: ipKey,
      allowListed: allowList,
      perIp(name, rule, { label = name, allowList: allowed = false, message } = {}) {
        declare(name);
        const limiter = app.createRateLimit({
          ...(allowed ? { allowList } : {}),
          max: rule.max,
          timeWindow: rule.windowMs,
          keyGenerator: (request) => keyOf(name, ipKey(request)),
        });
        return async (request) => {
          const result = await consult(limiter, request);
          if (result && !result.isAllowed && result.isExceeded) throw refuse(label, result.ttlInSeconds, message);
        };
      },
      keyed(name, rule) {
        const limiter = keyedLimiter(name, rule);
        return async (request, value) => {
          const result = await limiter(request, value);
          if (result && !result.isAllowed && result.isExceeded) throw refuse(name, result.ttlInSeconds);
        };
      },
      failures(name, rule) {
        const limiter = keyedLimiter(name, rule);
        return {
          async reserve(request, value, { enforce = true } = {}) {
            const result = await limiter(request, value);
            if (!result || result.isAllowed) return nothing;
            const refund = () => store.refund(keyOf(name, value));
            if (!enforce || !result.isExceeded) return refund;
            await refund();
            throw refuse(name, result.ttlInSeconds);
          },
        };
      },
      quota(name, rule) {
        const limiter = keyedLimiter(name, rule);
        return async (request, value) => {
          const result = await limiter(request, value);
          return !result || result.isAllowed || !result.isExceeded;
        };
      },
    } satisfies RateLimits);
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
