import { createHash } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { Gauge } from 'prom-client';
import { addressMatcher } from '../lib/address-list.ts';
import { AccountService, EmailTakenError, type IssuedSession } from '../lib/auth/accounts.ts';
import { PasswordHasher, type PasswordHashingParams, productionHashing } from '../lib/auth/passwords.ts';
import { normalizeEmail, type Registration } from '../lib/auth/validation.ts';
import { HttpError } from '../lib/http-error.ts';
import { fallbackStore } from '../lib/rate-limit/fallback-store.ts';
import type { PublicUser } from '../lib/page-data.ts';

/** The cookie the spec names: the client reads it and sends it back as `Authorization: Bearer`. */
export const tokenCookieName = 'token';

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface RateLimitSettings {
  /** Registrations per client address. */
  registerPerIp: RateLimitRule;
  /** Login attempts per client address. */
  loginPerIp: RateLimitRule;
  /** Failed logins per account (normalized email), whatever address they come from. */
  loginFailuresPerAccount: RateLimitRule;
  /** Password reset requests per client address. */
  passwordResetPerIp: RateLimitRule;
  /** Password reset requests per email address (known or not, so the limit reveals nothing). */
  passwordResetPerAddress: RateLimitRule;
  /** Uses of emailed links (reset, verification, email change) per client address. */
  linkUsePerIp: RateLimitRule;
  /** Emails a logged-in user can have sent (verification resends, email change links). */
  accountEmailsPerUser: RateLimitRule;
}

export const defaultRateLimits: RateLimitSettings = {
  registerPerIp: { max: 5, windowMs: 60_000 },
  loginPerIp: { max: 10, windowMs: 60_000 },
  loginFailuresPerAccount: { max: 5, windowMs: 15 * 60_000 },
  passwordResetPerIp: { max: 10, windowMs: 15 * 60_000 },
  passwordResetPerAddress: { max: 3, windowMs: 60 * 60_000 },
  linkUsePerIp: { max: 20, windowMs: 15 * 60_000 },
  accountEmailsPerUser: { max: 3, windowMs: 15 * 60_000 },
};

/** Checks one named limit for one key; throws HttpError 429 RATE_LIMITED (with Retry-After) when exceeded. */
export type KeyedLimit = (request: FastifyRequest, key: string) => Promise<void>;

export interface AccountsPluginOptions {
  /** argon2id cost; production-grade by default. Tests pass `testHashing`. */
  passwordHashing?: PasswordHashingParams;
  /** A ready hasher (tests wrap one to count verifications); overrides passwordHashing. */
  passwordHasher?: PasswordHasher;
  /** Time source for sessions (tests move it forward). */
  clock?: () => Date;
  /** How often a session's sliding expiry is written at most. Default one minute. */
  touchIntervalMs?: number;
  /** How often expired and revoked sessions are deleted; 0 turns it off. Default one hour. */
  sweepIntervalMs?: number;
  rateLimits?: Partial<RateLimitSettings>;
  /** Prefix of the rate-limit keys in Redis (tests isolate themselves with it). */
  rateLimitNamespace?: string;
  /** Paths under this prefix authenticate by the Bearer header only, never the cookie. Default `/api/`. */
  bearerOnlyPrefix?: string;
}

/** What other plugins use: the JSON routes, the no-JavaScript form posts, the play action, SSR. */
export interface Accounts {
  /** The user behind a token, or null (unknown, revoked, expired, malformed). */
  userFromToken(token: string | null | undefined): Promise<PublicUser | null>;
  /**
   * The request's token: the `Authorization: Bearer` header first, otherwise (pages and form
   * posts, not /api/) the `token` cookie.
   */
  tokenFrom(request: FastifyRequest): string | null;
  /** Creates the account and its first session. Throws HttpError 409 EMAIL_TAKEN. */
  register(request: FastifyRequest, registration: Registration): Promise<IssuedSession>;
  /** Called after every registration (the verification email is sent from here); must not throw. */
  onRegistered(listener: (user: PublicUser, request: FastifyRequest) => void): void;
  /**
   * Checks the credentials and opens a session. Throws HttpError 429 RATE_LIMITED after too many
   * failures for this account, 401 INVALID_CREDENTIALS (the same for an unknown email and a wrong password).
   */
  login(request: FastifyRequest, email: string, password: string): Promise<IssuedSession>;
  /**
   * Revokes the session the request names: the Bearer token (the API), or on a form post the
   * cookie (form posts pass an Origin check first). A cookie alone never ends a session
   * through the API, so another site cannot log a visitor out. Idempotent.
   */
  logout(request: FastifyRequest): Promise<void>;
  setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }): void;
  clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void;
  /**
   * Per-address limits: throw HttpError 429 RATE_LIMITED (with Retry-After) when exceeded. Usable
   * as `onRequest` hooks, or called directly (form posts), sharing one counter either way.
   */
  limitRegisterPerIp(request: FastifyRequest): Promise<void>;
  limitLoginPerIp(request: FastifyRequest): Promise<void>;
  /**
   * A limit of another feature on the same store (memory or Redis), keyed by what the caller
   * passes (hash personal keys such as emails with `limitKey`). Create at registration time.
   */
  createLimit(name: string, rule: RateLimitRule): KeyedLimit;
  /**
   * The per-account limit of failed logins, for a logged-in user retyping the password (changing
   * details, deleting the account): call before verifying (throws 429 once the limit is reached),
   * and with `failed` after a wrong password (counts it).
   */
  limitPasswordChecks(request: FastifyRequest, email: string, failed?: boolean): Promise<void>;
  /** Throws HttpError 401 UNAUTHENTICATED unless `request.user` is set; usable as a preHandler hook. */
  requireUser(request: FastifyRequest): Promise<void>;
  readonly service: AccountService;
  readonly rateLimits: RateLimitSettings;
  /** The time source of sessions and emailed links (tests move it). */
  readonly clock: () => Date;
}

/** A rate-limit key for personal data: the store never holds the value itself. */
export function limitKey(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts;
    /** True while the rate-limit counters are kept in memory because Redis does not answer. */
    rateLimitStoreDegraded: () => boolean;
  }
  interface FastifyRequest {
    /** The logged-in user (from the Bearer header, otherwise, outside /api/, the `token` cookie), or null. */
    user: PublicUser | null;
    /** The id of the session behind `request.user` (the sessions list marks it), or null. */
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** `false` skips resolving `request.user` on this route (health checks, static files). */
    auth?: boolean;
  }
}

function rateLimited(retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'RATE_LIMITED', `Too many attempts. Try again in ${seconds} seconds.`, undefined, {
    'retry-after': String(seconds),
  });
}

const bearerPattern = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Accounts: `app.accounts`, `request.user` on every request that carries a token, and the rate
 * limits of register and login (memory, or Redis when REDIS_URL is set). The HTTP routes live in
 * routes/api/auth.ts.
 */
export default fp<AccountsPluginOptions>(
  async (app, options) => {
    const hasher = options.passwordHasher ?? new PasswordHasher(options.passwordHashing ?? productionHashing);
    const clock = options.clock ?? (() => new Date());
    const service = new AccountService({
      db: app.db,
      hasher,
      clock,
      sessionTtlMs: app.config.sessionTtlDays * 24 * 60 * 60 * 1000,
      touchIntervalMs: options.touchIntervalMs ?? 60_000,
    });
    await service.init();

    const limits: RateLimitSettings = { ...defaultRateLimits, ...options.rateLimits };

    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;

    // Rate limits: one store for the whole app (in Redis shared by every replica).
    let redis: Redis | undefined;
    let store: ReturnType<typeof fallbackStore> | undefined;
    if (app.config.redisUrl) {
      redis = new Redis(app.config.redisUrl, {
        lazyConnect: true,
        // Fail fast when Redis is away (no queue, one try, a short command timeout): the store
        // then counts in memory until Redis answers again, and no request waits for it.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        connectTimeout: 5000,
        // Keep trying to reconnect, at most every 2 s.
        retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      });
      // ioredis reports every failed reconnection; the store logs the change of state once.
      redis.on('error', (error) => app.log.debug({ err: error }, 'redis (rate limits) connection error'));
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        throw new Error(`Cannot reach Redis at REDIS_URL for the rate limits: ${(error as Error).message}`, { cause: error });
      }
      const client = redis;
      app.addHook('onClose', async () => {
        await client.quit().catch(() => client.disconnect());
      });
    }
    if (redis) {
      store = fallbackStore(redis, options.rateLimitNamespace ?? 'rate-limit:', {
        degraded: (error) =>
          app.log.error({ err: error }, 'rate limits: Redis is unreachable; counting in this process until it is back (limits are per replica meanwhile)'),
        recovered: () => app.log.info('rate limits: Redis answers again; counters are shared again'),
      });
      app.decorate('rateLimitStoreDegraded', store.isDegraded);
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
    } else {
      app.decorate('rateLimitStoreDegraded', () => false);
    }
    await app.register(rateLimit, {
      global: false,
      ...(store ? { store: store.Store as never } : {}),
      errorResponseBuilder: (_request, context) => rateLimited(context.ttl / 1000),
    });

    // The client address; a request whose connection is already gone has none (nothing will
    // read the answer, but the limiter must not throw on it).
    const ipKey = (request: FastifyRequest) => (request.ip ? normalizeIP(request.ip) : 'unknown');
    // RATE_LIMIT_ALLOW_LIST: an operator's load generator skips the per-address limits; the
    // per-account failure limit still applies to it, and nothing changes for anyone else.
    const allowListed = addressMatcher(app.config.rateLimitAllowList);
    const allowList = (request: FastifyRequest) => allowListed(request.ip ?? '');
    const registerPerIp = app.createRateLimit({
      allowList,
      max: limits.registerPerIp.max,
      timeWindow: limits.registerPerIp.windowMs,
      keyGenerator: (request) => `register-ip:${ipKey(request)}`,
    });
    const loginPerIp = app.createRateLimit({
      allowList,
      max: limits.loginPerIp.max,
      timeWindow: limits.loginPerIp.windowMs,
      keyGenerator: (request) => `login-ip:${ipKey(request)}`,
    });
    const accountKey = Symbol('login account key');
    type Keyed = FastifyRequest & { [accountKey]?: string };
    const loginFailures = app.createRateLimit({
      max: limits.loginFailuresPerAccount.max,
      timeWindow: limits.loginFailuresPerAccount.windowMs,
      // The email is hashed, so the rate-limit store never holds addresses.
      keyGenerator: (request) => `login-account:${(request as Keyed)[accountKey] ?? ''}`,
    });

    type Limiter = typeof registerPerIp;
    /** The 429 of a limit, counted by the metrics. */
    function refuse(limit: string, retryAfterSeconds: number): HttpError {
      metrics?.rateLimitRefusals.inc({ limit });
      return rateLimited(retryAfterSeconds);
    }
    /**
     * Runs a limiter. The store falls back to memory by itself when Redis fails; anything else
     * thrown here is a bug, logged, and lets the request through rather than failing it.
     */
    async function consult(limiter: Limiter, request: FastifyRequest, increment = true) {
      try {
        return await limiter(request, { increment });
      } catch (error) {
        request.log.warn({ err: error }, 'rate limit check failed; request allowed');
        return null;
      }
    }
    const perIpHook =
      (limiter: Limiter, limit: string) =>
      async (request: FastifyRequest): Promise<void> => {
        const result = await consult(limiter, request);
        if (result && !result.isAllowed && result.isExceeded) throw refuse(limit, result.ttlInSeconds);
      };

    const bearerOnlyPrefix = options.bearerOnlyPrefix ?? '/api/';
    function tokenFrom(request: FastifyRequest): string | null {
      const header = request.headers.authorization;
      if (typeof header === 'string' && header !== '') {
        const match = bearerPattern.exec(header);
        if (match) return match[1] ?? null;
      }
      // The API takes the header only: no ambient credential, so no cross-site request forgery.
      if (bearerOnlyPrefix && request.url.startsWith(bearerOnlyPrefix)) return null;
      const cookie = request.cookies?.[tokenCookieName];
      return typeof cookie === 'string' && cookie !== '' ? cookie : null;
    }

    function cookieOptions(request: FastifyRequest) {
      return {
        path: '/',
        sameSite: 'lax' as const,
        // Not HttpOnly on purpose: the client reads it to send the Bearer header (see docs/decisions/0002).
        httpOnly: false,
        secure: request.protocol === 'https',
      };
    }

    function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }) {
      const maxAge = Math.max(0, Math.round((session.expiresAt.getTime() - clock().getTime()) / 1000));
      reply.setCookie(tokenCookieName, session.token, { ...cookieOptions(request), maxAge });
    }

    function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
      reply.clearCookie(tokenCookieName, cookieOptions(request));
    }

    const registered: Array<(user: PublicUser, request: FastifyRequest) => void> = [];
    const accounts: Accounts = {
      service,
      rateLimits: limits,
      tokenFrom,
      setSessionCookie,
      clearSessionCookie,
      async userFromToken(token) {
        return (await service.resolve(token))?.user ?? null;
      },
      async register(request, registration) {
        let session: IssuedSession;
        try {
          session = await service.register(registration, request.headers['user-agent']);
        } catch (error) {
          if (error instanceof EmailTakenError) throw new HttpError(409, 'EMAIL_TAKEN', error.message, { email: 'taken' });
          throw error;
        }
        for (const listener of registered) listener(session.user, request);
        return session;
      },
      onRegistered(listener) {
        registered.push(listener);
      },
      async login(request, rawEmail, password) {
        const email = normalizeEmail(rawEmail);
        (request as Keyed)[accountKey] = limitKey(email);
        const before = await consult(loginFailures, request, false);
        // Read without counting: only failures count against the account.
        if (before && !before.isAllowed && before.remaining === 0) throw refuse('login-account', before.ttlInSeconds);
        const user = await service.verifyCredentials(email, password);
        if (!user) {
          await consult(loginFailures, request, true);
          throw new HttpError(401, 'INVALID_CREDENTIALS', 'The email or the password is wrong.');
        }
        return service.createSession(user, request.headers['user-agent']);
      },
      async logout(request) {
        const token = tokenFrom(request);
        if (token) await service.revoke(token);
      },
      limitRegisterPerIp: perIpHook(registerPerIp, 'register-ip'),
      limitLoginPerIp: perIpHook(loginPerIp, 'login-ip'),
      createLimit(name, rule) {
        const key = Symbol(name);
        type WithKey = FastifyRequest & { [key]?: string };
        const limiter = app.createRateLimit({
          max: rule.max,
          timeWindow: rule.windowMs,
          keyGenerator: (request) => `${name}:${(request as WithKey)[key] ?? ''}`,
        });
        return async (request, value) => {
          (request as WithKey)[key] = value;
          const result = await consult(limiter, request);
          if (result && !result.isAllowed && result.isExceeded) throw refuse(name, result.ttlInSeconds);
        };
      },
      async limitPasswordChecks(request, email, failed = false) {
        (request as Keyed)[accountKey] = limitKey(email);
        // As for logins: read before verifying, count only a failure.
        const result = await consult(loginFailures, request, failed);
        if (!failed && result && !result.isAllowed && result.remaining === 0) throw refuse('login-account', result.ttlInSeconds);
      },
      clock,
      async requireUser(request) {
        if (!request.user) throw new HttpError(401, 'UNAUTHENTICATED', 'Log in to continue.');
      },
    };
    app.decorate('accounts', accounts);

    // request.user for every route (the SSR renderer included): nothing to do without a token,
    // otherwise one indexed query. When the expiry slides and the token came in the cookie, the
    // cookie's Max-Age follows, so an active visitor stays logged in.
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.addHook('preHandler', async (request, reply) => {
      if (request.routeOptions.config?.auth === false) return;
      const token = tokenFrom(request);
      if (!token) return;
      const session = await service.resolve(token);
      if (!session) return;
      request.user = session.user;
      request.sessionId = session.sessionId;
      if (session.extended && request.cookies?.[tokenCookieName] === token) {
        setSessionCookie(request, reply, { token, expiresAt: session.expiresAt });
      }
    });

    const sweepMs = options.sweepIntervalMs ?? 60 * 60 * 1000;
    if (sweepMs > 0) {
      const timer = setInterval(() => {
        service
          .sweep()
          .then((count) => count > 0 && app.log.info({ count }, 'deleted expired sessions'))
          .catch((error) => app.log.warn({ err: error }, 'session sweep failed'));
      }, sweepMs);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  { name: 'accounts', dependencies: ['config', 'database', '@fastify/cookie'] },
);
