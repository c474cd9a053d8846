import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { addressMatcher } from '../lib/address-list.ts';
import { HttpError } from '../contract/http-error.ts';
import { fallbackStore } from '../lib/rate-limit/fallback-store.ts';
import { type RateLimitRule, type RateLimitSettings, rateLimitSettings } from '../lib/rate-limit/settings.ts';

export interface RateLimitsPluginOptions {
  /** Limits other than lib/rate-limit/settings.ts's (tests). */
  limits?: Partial<RateLimitSettings>;
  /** Prefix of the keys in Redis (tests isolate themselves with it). */
  namespace?: string;
}

/** Checks one limit for one key; throws HttpError 429 RATE_LIMITED (with Retry-After) past it. */
export type KeyedLimit = (request: FastifyRequest, key: string) => Promise<void>;
/** Usable as an `onRequest` hook or called directly, one counter either way. */
export type RequestLimit = (request: FastifyRequest) => Promise<void>;

/** Failures counted per key (a wrong password): only a failure counts, every attempt is checked. */
export interface FailureLimit {
  /** Throws 429 once the failures reached the limit; counts nothing. */
  check(request: FastifyRequest, key: string): Promise<void>;
  fail(request: FastifyRequest, key: string): Promise<void>;
}

/** Keys remembered for a while (an address an account logged in from). */
export interface Marks {
  has(request: FastifyRequest, key: string): Promise<boolean>;
  mark(request: FastifyRequest, key: string): Promise<void>;
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
  marks(name: string, windowMs: number): Marks;
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
 * One @fastify/rate-limit store for the app: memory, or Redis at REDIS_URL, falling back to each
 * replica's memory while Redis is away (decision 0010).
 */
export default fp<RateLimitsPluginOptions>(
  async (app, options) => {
    const settings = rateLimitSettings(app.config, options.limits);
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;

    let store: ReturnType<typeof fallbackStore> | undefined;
    if (app.config.redisUrl) {
      // Loaded only here: a replica without Redis does not carry the client (decision 0022).
      const { Redis } = await import('ioredis');
      const redis = new Redis(app.config.redisUrl, {
        lazyConnect: true,
        // Fail fast when Redis is away: the store then counts in memory and no request waits.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        connectTimeout: 5000,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      // ioredis reports every failed reconnection; the store logs the change of state once.
      redis.on('error', (error) => app.log.debug({ err: error }, 'redis (rate limits) connection error'));
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        throw new Error(`Cannot reach Redis at REDIS_URL for the rate limits: ${(error as Error).message}`, {
          cause: error,
        });
      }
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      store = fallbackStore(redis, options.namespace ?? 'rate-limit:', {
        degraded: (error) =>
          app.log.error(
            { err: error },
            'rate limits: Redis is unreachable; counting in this process until it is back (limits are per replica meanwhile)',
          ),
        recovered: () => app.log.info('rate limits: Redis answers again; counters are shared again'),
      });
      if (metrics) {
        const isDegraded = store.isDegraded;
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
      ...(store ? { store: store.Store as never } : {}),
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
    /** A limiter whose key is the value the caller set on the request under `name`. */
    function keyedLimiter(name: string, rule: RateLimitRule) {
      const key = Symbol(name);
      type WithKey = FastifyRequest & { [key]?: string };
      const limiter = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => `${name}:${(request as WithKey)[key] ?? ''}`,
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

    app.decorate('rateLimits', {
      settings,
      addressOf: ipKey,
      allowListed: allowList,
      perIp(name, rule, { label = name, allowList: allowed = false, message } = {}) {
        const limiter = app.createRateLimit({
          ...(allowed ? { allowList } : {}),
          max: rule.max,
          timeWindow: rule.windowMs,
          keyGenerator: (request) => `${name}:${ipKey(request)}`,
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
          async check(request, value) {
            const result = await limiter(request, value, false);
            if (result && !result.isAllowed && result.remaining === 0) throw refuse(name, result.ttlInSeconds);
          },
          async fail(request, value) {
            await limiter(request, value, true);
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
      marks(name, windowMs) {
        // A limit that is never reached: its count says whether the key was marked in the window.
        const max = Number.MAX_SAFE_INTEGER;
        const limiter = keyedLimiter(name, { max, windowMs });
        return {
          async has(request, value) {
            const result = await limiter(request, value, false);
            return result !== null && 'remaining' in result && result.remaining < max;
          },
          async mark(request, value) {
            await limiter(request, value, true);
          },
        };
      },
    } satisfies RateLimits);
  },
  { name: 'rate-limits', dependencies: ['config'] },
);
