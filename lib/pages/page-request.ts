import type { FastifyRequest } from 'fastify';
import { localePath, type Locale } from '../../contract/locales.ts';
import type { PageRoute } from '../../contract/routes.ts';

/** A page's answers: the HTML document, its `_payload.json`, or (catch-all) either, by the suffix. */
export type PageAnswer = 'document' | 'payload';

/** What routes/pages/index.ts declares in each page route's `config.page`, from contract/routes.ts. */
export interface PageRouteConfig {
  route: PageRoute;
  locale: Locale;
  answer: PageAnswer | 'by-suffix';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    page?: PageRouteConfig;
  }
}

/** The page a request was routed to, and which of its answers it asks for. */
export interface PageRequest {
  route: PageRoute;
  locale: Locale;
  answer: PageAnswer;
  /** The route pattern that answered (`/th/asdas/:slug`, `/*\/_payload.json`): traces and logs name pages by it. */
  pattern: string;
}

export const payloadSuffix = '/_payload.json';

/** Fastify's pattern of a page (`/th/asdas/:slug`) and of its payload: react-router's syntax is the same. */
export function pagePatterns(locale: Locale, route: PageRoute): { document: string; payload: string } {
  const document = localePath(locale, `/${route.path}`);
  return { document, payload: `${document === '/' ? '' : document}${payloadSuffix}` };
}

/**
 * Which page this is, from the matched route's declaration: undefined for a route that is not a
 * page's. Every plugin with a page concern asks here, never the raw URL.
 */
export function pageOf(request: FastifyRequest): PageRequest | undefined {
  const { config, url = '' } = request.routeOptions;
  const page = config.page;
  if (!page) return undefined;
  if (page.answer !== 'by-suffix') return { route: page.route, locale: page.locale, answer: page.answer, pattern: url };
  const query = request.url.indexOf('?');
  const pathname = query === -1 ? request.url : request.url.slice(0, query);
  return pathname.endsWith(payloadSuffix)
    ? { route: page.route, locale: page.locale, answer: 'payload', pattern: `${url}${payloadSuffix}` }
    : { route: page.route, locale: page.locale, answer: 'document', pattern: url };
}
