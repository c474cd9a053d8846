import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { AccountLinkDependencies } from '../../lib/auth/account-link-service.ts';
import { AccountTokens, type TokenCheck } from '../../lib/auth/account-tokens.ts';
import { pageRoutes, type PageId } from '../../contract/routes.ts';
import { pageOf } from '../../lib/pages/page-request.ts';

/** Checks the token of an emailed link without using it. */
export type LinkCheck = (token: string) => Promise<TokenCheck>;

export interface AccountLinks {
  /** How the page's emailed links (`emailedLink` in contract/routes.ts) are checked; an unusable token is sent on (303) to `?problem=`. */
  define(page: PageId, check: LinkCheck): void;
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
    const pages = new Map<PageId, LinkCheck>();
    const perIp = app.rateLimits.keyed('link-use-ip', app.rateLimits.settings.linkUsePerIp);
    const tokens = new AccountTokens(app.db, app.accounts.clock);
    const emailsPerUser = app.rateLimits.keyed('account-emails-user', app.rateLimits.settings.accountEmailsPerUser);
    app.decorate('accountLinks', {
      define(page, check) {
        if (pages.has(page)) throw new Error(`Link page '${page}' is defined twice.`);
        if (!pageRoutes.some((route) => route.id === page && route.emailedLink))
          throw new Error(`Page '${page}' does not declare emailedLink in contract/routes.ts.`);
        pages.set(page, check);
      },
      limitUse: (request) => perIp(request, normalizeIP(request.ip)),
      dependencies: { db: app.db, accounts: app.accounts.service, tokens },
      limitEmailsPerUser: emailsPerUser,
    } satisfies AccountLinks);

    const linkPage = (request: FastifyRequest) => {
      const page = pageOf(request);
      return page?.route.emailedLink && page.answer === 'document' ? page : undefined;
    };
    const carriesToken = (request: FastifyRequest) => tokenParameter.test(request.url);

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      // The cheap test first: this runs for every request.
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !carriesToken(request)) return;
      const page = linkPage(request);
      const check = page && pages.get(page.route.id);
      if (!check) return;
      const url = new URL(request.url, 'http://localhost');
      // Before the render, so the page cache never keeps it.
      reply.header('cache-control', 'no-store');
      const checked = await check(url.searchParams.get('token') ?? '');
      if (checked.ok) return;
      return reply.redirect(`${url.pathname}?problem=${checked.problem}`, 303);
    });

    app.jobs.every('account link sweep', 60 * 60 * 1000, async () => {
      const count = await tokens.sweep();
      if (count > 0) app.log.info({ count }, 'deleted expired account links');
    });

    app.addHook('onSend', async (request, reply) => {
      if ((request.method !== 'POST' && !carriesToken(request)) || !linkPage(request)) return;
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'same-origin');
    });
  },
  { name: 'account-links', dependencies: ['accounts', 'database', 'rate-limits', 'background-jobs'] },
);
