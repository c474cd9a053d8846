import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis as RedisClient } from 'ioredis';
import { Gauge } from 'prom-client';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import { addressMatcher } from '../../lib/address-list.ts';
import { ConfigError } from '../../lib/config.ts';
import { HttpError } from '../../contract/http-error.ts';
import { isRefusal, type LimitState, MemoryLimiter } from '../../lib/rate-limit/memory-limiter.ts';
import {
  memoryKeys,
  type RateLimitRule,
  type RateLimitSettings,
  rateLimitSettings,
} from '../../lib/rate-limit/settings.ts';

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

// Two commands a count, as the store before it (rate-limiter-flexible's own script runs three); a
// refund (negative points) never takes a count below zero nor starts one that has ended.
const countScript = `
if tonumber(ARGV[1]) < 0 then
  if tonumber(redis.call('get', KEYS[1]) or '0') <= 0 then return {0, -2} end
  return {redis.call('incrby', KEYS[1], ARGV[1]), -1}
end
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl < 0 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`;

type Flexible = typeof RateLimiterFlexible & { default?: typeof RateLimiterFlexible };

type Limiter = Pick<MemoryLimiter, 'consume' | 'reward'>;

/**
 * rate-limiter-flexible's limiters: in Redis at REDIS_URL, insured by counters in memory while
 * Redis is away (decision 0010), or in memory alone, bounded per limit (decisions 0036, 0045).
 */
export default fp<RateLimitsPluginOptions>(
  async (app, options) => {
    const settings = rateLimitSettings(app.config, options.limits);
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    const namespace = options.namespace ?? 'rate-limit:';

    const lastOverflowLog = new Map<string, number>();
    const overflowing = (limit: string) => {
      const now = Date.now();
      if ((lastOverflowLog.get(limit) ?? -Infinity) > now - 60_000) return;
      lastOverflowLog.set(limit, now);
      app.log.warn(
        { limit, keys: memoryKeys },
        'rate limit: more keys than memory counts exactly; new keys are counted approximately (never fewer) until the flood ends',
      );
    };
    // While Redis is away (not while it is let go at close): the counting is per replica.
    let degraded = false;
    let closing = false;
    const redis = app.config.redisUrl ? await connectRedis(app.config.redisUrl) : undefined;
    // CommonJS: the bundle's import gives its module.exports as `default` only.
    const loaded = redis && ((await import('rate-limiter-flexible')) as Flexible);
    const flexible = loaded && (loaded.default ?? loaded);
    /** The memory limiter as rate-limiter-flexible's kind, for its insurance (loaded with Redis only, as its client). */
    const Insurance =
      flexible &&
      class extends flexible.RateLimiterCompatibleAbstract {
        override readonly keyPrefix: string;
        override blockDuration = 0;
        override execEvenly = false;
        constructor(readonly memory: MemoryLimiter) {
          super();
          this.keyPrefix = memory.keyPrefix;
        }
        override consume(key: string | number) {
          return this.memory.consume(key) as Promise<RateLimiterFlexible.RateLimiterRes>;
        }
        override reward(key: string | number) {
          return this.memory.reward(key).then(() => new flexible.RateLimiterRes());
        }
      };

    async function connectRedis(url: string): Promise<RedisClient> {
      // Loaded only here: a replica without Redis does not carry the client (decision 0022).
      // Its module.exports, the client class (CommonJS on demand: lib/tracing.ts says why).
      const Redis = (await import('ioredis')).default as unknown as typeof RedisClient;
      const redis = new Redis(url, {
        lazyConnect: true,
        // Fail fast when Redis is away: the limits then count in memory and no request waits.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        connectTimeout: 5000,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      // ioredis reports every failed reconnection; the change of state is logged once.
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
      redis.on('close', () => {
        if (degraded || closing) return;
        degraded = true;
        app.log.error(
          { err: lastError },
          'rate limits: Redis is unreachable; counting in this process until it is back (limits are per replica meanwhile)',
        );
      });
      redis.on('ready', () => {
        if (!degraded) return;
        degraded = false;
        app.log.info('rate limits: Redis answers again; counters are shared again');
      });
      app.addHook('onClose', async () => {
        closing = true;
        await redis.quit().catch(() => redis.disconnect());
      });
      return redis;
    }

    const memory = new Map<string, MemoryLimiter>();
    if (metrics) {
      new Gauge({
        name: 'rate_limit_memory_keys',
        help: 'Keys each limit counts exactly in this process (memory; past the bound, approximately: decision 0045).',
        labelNames: ['limit'],
        registers: [metrics.registry],
        collect() {
          for (const [limit, limiter] of memory) this.set({ limit }, limiter.size);
        },
      });
      if (redis) {
        new Gauge({
          name: 'rate_limit_store_degraded',
          help: '1 while Redis does not answer and rate limits count in this process (docs/decisions/0010).',
          registers: [metrics.registry],
          collect() {
            this.set(degraded ? 1 : 0);
          },
        });
      }
    }

    /** Keys name their limit (`login-ip:<address>`) right after the namespace. */
    function limiter(name: string, rule: RateLimitRule): Limiter {
      if (name.includes(':')) throw new Error(`A limit's name holds no ':' (${name})`);
      const inMemory = new MemoryLimiter({
        keyPrefix: name,
        points: rule.max,
        windowMs: rule.windowMs,
        capacity: memoryKeys,
        overflowing,
        ...(options.now ? { now: options.now } : {}),
      });
      memory.set(name, inMemory);
      if (!Insurance) return inMemory;
      return new flexible.RateLimiterRedis({
        storeClient: redis,
        keyPrefix: namespace + name,
        points: rule.max,
        duration: Math.max(1, Math.round(rule.windowMs / 1000)),
        rejectIfRedisNotReady: true,
        insuranceLimiter: new Insurance(inMemory),
        customIncrTtlLuaScript: countScript,
      });
    }

    /** Counts one for `key`: a RateLimiterRes past the limit, else undefined. A fault is a bug, logged, and lets the request through. */
    async function count(limit: Limiter, request: FastifyRequest, key: string): Promise<LimitState | undefined> {
      try {
        await limit.consume(key);
        return undefined;
      } catch (outcome) {
        if (isRefusal(outcome)) return outcome;
        request.log.warn({ err: outcome }, 'rate limit check failed; request allowed');
        return undefined;
      }
    }
    function refuse(label: string, res: LimitState, message?: (seconds: number) => string): HttpError {
      metrics?.rateLimitRefusals.inc({ limit: label });
      return rateLimited(res.msBeforeNext / 1000, message);
    }

    // A request whose connection is already gone has no address; the limiter must not throw on it.
    const ipKey = (request: FastifyRequest) => (request.ip ? normalizeIP(request.ip) : 'unknown');
    // RATE_LIMIT_ALLOW_LIST: an operator's load generator; per-account failure limits still apply.
    const allowListed = addressMatcher(app.config.rateLimitAllowList);
    const allowList = (request: FastifyRequest) => allowListed(request.ip ?? '');

    app.decorate('rateLimits', {
      settings,
      addressOf: ipKey,
      allowListed: allowList,
      perIp(name, rule, { label = name, allowList: allowed = false, message } = {}) {
        const limit = limiter(name, rule);
        return async (request) => {
          if (allowed && allowList(request)) return;
          const refused = await count(limit, request, ipKey(request));
          if (refused) throw refuse(label, refused, message);
        };
      },
      keyed(name, rule) {
        const limit = limiter(name, rule);
        return async (request, value) => {
          const refused = await count(limit, request, value);
          if (refused) throw refuse(name, refused);
        };
      },
      failures(name, rule) {
        const limit = limiter(name, rule);
        return {
          async reserve(request, value, { enforce = true } = {}) {
            const refused = await count(limit, request, value);
            const refund = () =>
              limit.reward(value).then(
                () => undefined,
                (error: unknown) => request.log.warn({ err: error }, 'rate limit refund failed'),
              );
            if (!enforce || !refused) return refund;
            await refund();
            throw refuse(name, refused);
          },
        };
      },
      quota(name, rule) {
        const limit = limiter(name, rule);
        return async (request, value) => !(await count(limit, request, value));
      },
    } satisfies RateLimits);
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
