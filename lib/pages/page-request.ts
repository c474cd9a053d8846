import type { FastifyRequest } from 'fastify';
import { localePath, type Locale } from '../../contract/locales.ts';
import type { PageRoute } from '../../contract/routes.ts';

export type PageAnswer = 'document' | 'payload';

/** The page a request was routed to, and which of its answers it asks for. */
export interface PageRequest {
  route: PageRoute;
  locale: Locale;
  answer: PageAnswer;
  /** The route pattern that answered (`/th/asdas/:slug`, `/*\/_payload.json`): traces name pages by it. */
  pattern: string;
}

/**
 * What routes/pages/index.ts declares in a page route's config, made once at registration: the
 * page, and for the catch-all, which answers both on one pattern, the page its payload path asks for.
 */
export interface PageRouteConfig {
  page: PageRequest;
  payloadPage?: PageRequest;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    page?: PageRouteConfig;
  }
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
  const declared = request.routeOptions.config.page;
  if (!declared?.payloadPage) return declared?.page;
  const query = request.url.indexOf('?');
  const pathname = query === -1 ? request.url : request.url.slice(0, query);
  return pathname.endsWith(payloadSuffix) ? declared.payloadPage : declared.page;
}
