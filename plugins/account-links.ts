import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { AccountLinkDependencies } from '../lib/auth/account-link-service.ts';
import { AccountTokens, type TokenCheck } from '../lib/auth/account-tokens.ts';
import { splitLocale } from '../contract/locales.ts';

/** Checks the token of an emailed link without using it. */
export type LinkCheck = (token: string) => Promise<TokenCheck>;

export interface AccountLinks {
  /**
   * Declares a page that emailed links open (`/reset-password?token=...`), in every language.
   * Opening it with a token checks the token first: a link that cannot be used is sent on
   * (303) to `?problem=invalid|used|expired`, a page with no secret in it.
   */
  define(path: string, check: LinkCheck): void;
  /** Uses of emailed links per client address (an `onRequest` hook for the routes that use them). */
  limitUse: (request: FastifyRequest) => Promise<void>;
  /** What the services of emailed links are built with: the database, the accounts, the links' tokens. */
  readonly dependencies: AccountLinkDependencies;
  /** Emails with a link a user asks for (verification resends, email changes): one limit per user id for all of them. */
  limitEmailsPerUser(request: FastifyRequest, userId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountLinks: AccountLinks;
  }
}

const tokenParameter = /[?&]token=/;

/**
 * The pages behind emailed links. Their address carries a secret, so whatever they answer is
 * `Cache-Control: no-store` (no shared cache, browser cache or the site's page cache keeps a copy
 * of a page made for one token, and a page that showed a form is never replayed after the link
 * was used) and `Referrer-Policy: same-origin` (the address never travels to another site;
 * `no-referrer` would make browsers post the form with `Origin: null`, which the CSRF check
 * refuses). The page itself only shows what it reads from its own URL; whether the token works
 * is decided here, before it renders, and again when the form is posted.
 */
export default fp(
  async (app) => {
    const pages = new Map<string, LinkCheck>();
    const perIp = app.rateLimits.keyed('link-use-ip', app.rateLimits.settings.linkUsePerIp);
    const tokens = new AccountTokens(app.db, app.accounts.clock);
    const emailsPerUser = app.rateLimits.keyed('account-emails-user', app.rateLimits.settings.accountEmailsPerUser);
    app.decorate('accountLinks', {
      define(path, check) {
        if (pages.has(path)) throw new Error(`Link page '${path}' is defined twice.`);
        pages.set(path, check);
      },
      limitUse: (request) => perIp(request, normalizeIP(request.ip)),
      dependencies: { db: app.db, accounts: app.accounts.service, tokens },
      limitEmailsPerUser: emailsPerUser,
    } satisfies AccountLinks);

    const pageOf = (request: FastifyRequest): { path: string; pathname: string } | null => {
      if (pages.size === 0 || request.routeOptions.url !== '/*') return null;
      const pathname = request.url.split('?')[0] ?? '';
      const { path } = splitLocale(pathname.replace(/\/+$/, '') || '/');
      return pages.has(path) ? { path, pathname } : null;
    };
    const carriesToken = (request: FastifyRequest) => tokenParameter.test(request.url);

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      // The cheap test first: this runs for every request.
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !carriesToken(request)) return;
      const page = pageOf(request);
      if (!page) return;
      const token = new URL(request.url, 'http://localhost').searchParams.get('token') ?? '';
      // Marked before the page renders, so the anonymous page cache (plugins/page-cache.ts) never keeps it.
      reply.header('cache-control', 'no-store');
      const checked = await pages.get(page.path)!(token);
      if (checked.ok) return;
      return reply.redirect(`${page.pathname}?problem=${checked.problem}`, 303);
    });

    // Links that expired more than a day ago are deleted, hourly.
    app.jobs.every('account link sweep', 60 * 60 * 1000, async () => {
      const count = await tokens.sweep();
      if (count > 0) app.log.info({ count }, 'deleted expired account links');
    });

    app.addHook('onSend', async (request, reply) => {
      if ((request.method !== 'POST' && !carriesToken(request)) || !pageOf(request)) return;
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'same-origin');
    });
  },
  { name: 'account-links', dependencies: ['accounts', 'database', 'rate-limits', 'background-jobs'] },
);
