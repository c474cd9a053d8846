import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { AccountLinkDependencies } from '../lib/auth/account-link-service.ts';
import { AccountTokens, type TokenCheck } from '../lib/auth/account-tokens.ts';
import { splitLocale } from '../contract/locales.ts';

/** Checks the token of an emailed link without using it. */
export type LinkCheck = (token: string) => Promise<TokenCheck>;

export interface AccountLinks {
  /** A page emailed links open, in every language; an unusable token is sent on (303) to `?problem=`. */
  define(path: string, check: LinkCheck): void;
  limitUse: (request: FastifyRequest) => Promise<void>;
  readonly dependencies: AccountLinkDependencies;
  /** Emails with a link a user asks for (verification resends, email changes): one limit per user. */
  limitEmailsPerUser(request: FastifyRequest, userId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountLinks: AccountLinks;
  }
}

const tokenParameter = /[?&]token=/;

/**
 * The addresses of emailed links carry a secret: `no-store`, and `Referrer-Policy: same-origin`
 * (`no-referrer` would make browsers post the form with `Origin: null`, which the CSRF check refuses).
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
      // Before the render, so the page cache never keeps it.
      reply.header('cache-control', 'no-store');
      const checked = await pages.get(page.path)!(token);
      if (checked.ok) return;
      return reply.redirect(`${page.pathname}?problem=${checked.problem}`, 303);
    });

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
