import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountService, EmailTakenError, type IssuedSession } from '../lib/auth/accounts.ts';
import { PasswordHasher, type PasswordHashingParams, productionHashing } from '../lib/auth/passwords.ts';
import { normalizeEmail, type Registration } from '../lib/auth/validation.ts';
import { cookieNames } from '../contract/cookies.ts';
import { HttpError } from '../contract/http-error.ts';
import { limitKey } from '../lib/rate-limit/settings.ts';
import type { PublicUser } from '../contract/page-data.ts';

/** The cookie the spec names (`token`): the client reads it and sends it back as `Authorization: Bearer`. */
const tokenCookieName = cookieNames.session;

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
   * The per-account limit of failed logins, for a logged-in user retyping the password (changing
   * details, deleting the account): call before verifying (throws 429 once the limit is reached),
   * and with `failed` after a wrong password (counts it).
   */
  limitPasswordChecks(request: FastifyRequest, email: string, failed?: boolean): Promise<void>;
  /** Throws HttpError 401 UNAUTHENTICATED unless `request.user` is set; usable as a preHandler hook. */
  requireUser(request: FastifyRequest): Promise<void>;
  readonly service: AccountService;
  /** The time source of sessions and emailed links (tests move it). */
  readonly clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts;
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

const bearerPattern = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Accounts: `app.accounts`, `request.user` on every request that carries a token, and the rate
 * limits of register and login (plugins/rate-limits.ts). The HTTP routes live in routes/api/auth.ts.
 */
export default fp<AccountsPluginOptions>(
  async (app, options) => {
    const hasher =
      options.passwordHasher ??
      new PasswordHasher(options.passwordHashing ?? productionHashing, { concurrency: app.config.passwordHashConcurrency });
    const clock = options.clock ?? (() => new Date());
    const service = new AccountService({
      db: app.db,
      hasher,
      clock,
      sessionTtlMs: app.config.sessionTtlDays * 24 * 60 * 60 * 1000,
      touchIntervalMs: options.touchIntervalMs ?? 60_000,
    });
    await service.init();

    const { rateLimits } = app;
    const limits = rateLimits.settings;
    const registerPerIp = rateLimits.perIp('register-ip', limits.registerPerIp, { allowList: true });
    const loginPerIp = rateLimits.perIp('login-ip', limits.loginPerIp, { allowList: true });
    const loginFailures = rateLimits.failures('login-account', limits.loginFailuresPerAccount);

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
        // The email is hashed, so the rate-limit store never holds addresses; only failures count.
        await loginFailures.check(request, limitKey(email));
        const user = await service.verifyCredentials(email, password);
        if (!user) {
          await loginFailures.fail(request, limitKey(email));
          throw new HttpError(401, 'INVALID_CREDENTIALS', 'The email or the password is wrong.');
        }
        return service.createSession(user, request.headers['user-agent']);
      },
      async logout(request) {
        const token = tokenFrom(request);
        if (token) await service.revoke(token);
      },
      limitRegisterPerIp: registerPerIp,
      limitLoginPerIp: loginPerIp,
      async limitPasswordChecks(request, email, failed = false) {
        // As for logins: checked before verifying, only a failure counts.
        if (failed) await loginFailures.fail(request, limitKey(email));
        else await loginFailures.check(request, limitKey(email));
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
      app.jobs.every('session sweep', sweepMs, async () => {
        const count = await service.sweep();
        if (count > 0) app.log.info({ count }, 'deleted expired sessions');
      });
    }
  },
  { name: 'accounts', dependencies: ['config', 'database', 'rate-limits', 'background-jobs', '@fastify/cookie'] },
);
