import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountService, EmailTakenError, type IssuedSession } from '../../lib/auth/accounts.ts';
import { cookieSecurity } from '../../lib/cookie-security.ts';
import { KnownAddresses } from '../../lib/auth/known-addresses.ts';
import { PasswordHasher, type PasswordHashingParams, productionHashing } from '../../lib/auth/passwords.ts';
import { normalizeEmail, type Registration } from '../../lib/auth/validation.ts';
import { cookieNames } from '../../contract/cookies.ts';
import { HttpError } from '../../contract/http-error.ts';
import { loginThrottles, type LoginThrottle } from './login-throttle.ts';
import type { PublicUser } from '../../contract/page-data.ts';

const tokenCookieName = cookieNames.session;

export interface AccountsPluginOptions {
  /** argon2id cost (tests pass `testHashing`). */
  passwordHashing?: PasswordHashingParams;
  /** A ready hasher (tests wrap one to count verifications); overrides passwordHashing. */
  passwordHasher?: PasswordHasher;
  clock?: () => Date;
  /** How often a session's sliding expiry is written at most. Default one minute. */
  touchIntervalMs?: number;
  /** How often expired and revoked sessions are deleted; 0 turns it off. Default one hour. */
  sweepIntervalMs?: number;
}

export interface Accounts {
  userFromToken(token: string | null | undefined): Promise<PublicUser | null>;
  /** The request's token as its route's `auth` allows: the Bearer header, else on the pages the cookie. */
  tokenFrom(request: FastifyRequest): string | null;
  /** The `Authorization: Bearer` value, for a route that authenticates by itself (`auth: false`). */
  bearerToken(request: FastifyRequest): string | null;
  /** Throws HttpError 409 EMAIL_TAKEN. */
  register(request: FastifyRequest, registration: Registration): Promise<IssuedSession>;
  /** Called after every registration (the verification email is sent from here); must not throw. */
  onRegistered(listener: (user: PublicUser, request: FastifyRequest) => void): void;
  /** Throws HttpError 429 or 401 INVALID_CREDENTIALS, the same for an unknown email and a wrong password. */
  login(request: FastifyRequest, email: string, password: string): Promise<IssuedSession>;
  /**
   * Revokes the session of `tokenFrom(request)`; idempotent. The API never takes the cookie, so
   * another site cannot log a visitor out (form posts pass an Origin check first).
   */
  logout(request: FastifyRequest): Promise<void>;
  setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }): void;
  clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void;
  limitRegisterPerIp: (request: FastifyRequest) => Promise<void>;
  limitLoginPerIp: (request: FastifyRequest) => Promise<void>;
  /** The login throttle for a logged-in user retyping the password (account changes, deletion). */
  passwordThrottle(request: FastifyRequest, email: string): Promise<LoginThrottle>;
  /** The request's address is one the user proved (a completed password reset). */
  rememberAddress(request: FastifyRequest, userId: string): Promise<void>;
  /** Usable as a preHandler hook. */
  requireUser: (request: FastifyRequest) => Promise<void>;
  readonly service: AccountService;
  /** The time source of sessions and emailed links. */
  readonly clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: Accounts;
  }
  interface FastifyRequest {
    /** The logged-in user, from the token `auth` allows (`Accounts.tokenFrom`), or null. */
    user: PublicUser | null;
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /**
     * Where the route reads the session token (decision 0026): `header` under /api/ (no ambient
     * credential, so no CSRF), `header-or-cookie` for the pages and their forms, `false` elsewhere.
     */
    auth?: AuthMode;
  }
}

export type AuthMode = 'header' | 'header-or-cookie' | false;

/** For a route that declares none (the pages declare theirs): decided on its registered path. */
function defaultAuthMode(routePath: string): AuthMode {
  return routePath.startsWith('/api/') ? 'header' : false;
}

const bearerPattern = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** `app.accounts` and `request.user`; the operations on them are lib/auth/operations.ts. */
export default fp<AccountsPluginOptions>(
  async (app, options) => {
    const hasher =
      options.passwordHasher ??
      new PasswordHasher(options.passwordHashing ?? productionHashing, {
        concurrency: app.config.passwordHashConcurrency,
      });
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
    const knownAddresses = new KnownAddresses({ db: app.db, clock, keepMs: limits.knownLoginAddressMs });
    const loginThrottle = loginThrottles(rateLimits, knownAddresses);

    app.addHook('onRoute', (route) => {
      if (route.config?.auth !== undefined) return;
      route.config = { ...route.config, auth: defaultAuthMode(route.url ?? route.path) };
    });

    function bearerToken(request: FastifyRequest): string | null {
      const header = request.headers.authorization;
      if (typeof header !== 'string' || header === '') return null;
      return bearerPattern.exec(header)?.[1] ?? null;
    }

    function tokenFrom(request: FastifyRequest): string | null {
      const mode = request.routeOptions.config?.auth ?? false;
      if (mode === false) return null;
      const bearer = bearerToken(request);
      if (bearer !== null || mode !== 'header-or-cookie') return bearer;
      const cookie = request.cookies?.[tokenCookieName];
      return typeof cookie === 'string' && cookie !== '' ? cookie : null;
    }

    const secure = cookieSecurity(app.config.publicUrl);
    function cookieOptions(request: FastifyRequest) {
      return {
        path: '/',
        sameSite: 'lax' as const,
        // Not HttpOnly on purpose: the client reads it to send the Bearer header (see docs/decisions/0002).
        httpOnly: false,
        secure: secure(request),
      };
    }

    function setSessionCookie(
      request: FastifyRequest,
      reply: FastifyReply,
      session: { token: string; expiresAt: Date },
    ) {
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
      bearerToken,
      setSessionCookie,
      clearSessionCookie,
      async userFromToken(token) {
        return (await service.resolve(token))?.user ?? null;
      },
      async register(request, registration) {
        let session: IssuedSession;
        try {
          // Registering proves the address as a login does: the owner is never a stranger there.
          const address = rateLimits.addressOf(request);
          session = await service.register(registration, request.headers['user-agent'], (trx, userId) =>
            knownAddresses.add(userId, address, trx),
          );
        } catch (error) {
          if (error instanceof EmailTakenError)
            throw new HttpError(409, 'EMAIL_TAKEN', error.message, { email: 'taken' });
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
        const account = await service.findLoginAccount(email);
        const user = await loginThrottle(request, email, account).attempt(
          () => service.verifyCredentials(account, password),
          { failed: (verified) => !verified },
        );
        if (!user) throw new HttpError(401, 'INVALID_CREDENTIALS', 'The email or the password is wrong.');
        return service.createSession(user, request.headers['user-agent']);
      },
      async logout(request) {
        const token = tokenFrom(request);
        if (token) await service.revoke(token);
      },
      limitRegisterPerIp: registerPerIp,
      limitLoginPerIp: loginPerIp,
      async passwordThrottle(request, email) {
        const account = await service.findLoginAccount(email);
        return loginThrottle(request, email, account);
      },
      rememberAddress(request, userId) {
        return knownAddresses.add(userId, rateLimits.addressOf(request));
      },
      clock,
      async requireUser(request) {
        if (!request.user) throw new HttpError(401, 'UNAUTHENTICATED', 'Log in to continue.');
      },
    };
    app.decorate('accounts', accounts);

    // When the expiry slides and the token came in the cookie, the cookie's Max-Age follows, so an
    // active visitor stays logged in.
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);
    app.addHook('preHandler', async (request, reply) => {
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
        const addresses = await knownAddresses.sweep();
        if (addresses > 0) app.log.info({ count: addresses }, 'forgot login addresses not proved lately');
      });
    }
  },
  { name: 'accounts', dependencies: ['config', 'database', 'rate-limits', 'background-jobs', '@fastify/cookie'] },
);
