import type { IncomingHttpHeaders } from 'node:http';
import { cookieNames } from '../../contract/cookies.ts';
import { preferredLocale } from '../accept.ts';
import { cacheableQuery } from '../page-cache-key.ts';
import type { StoredHeaders } from '../page-cache.ts';
import type { PageRequest } from './page-request.ts';

const html = 'text/html; charset=utf-8';
const json = 'application/json; charset=utf-8';

/**
 * Who a page's answer is for, which decides where it may be kept (decision 0044):
 * - `shared`: anyone without a session; a CDN or the proxy may keep it for everybody.
 * - `anonymous`: no session either, but only the browser may keep it: an address with a query the
 *   page does not read (or not in its one form), a payload asked without this build's id, or the
 *   English home a crawler gets where a person would be sent to /th. So no address made up by a
 *   client can fill a shared cache: what it keeps is what the page cache keeps.
 * - `personal`: a session, a notice or a cookie set: nobody keeps it.
 */
export type Audience = 'shared' | 'anonymous' | 'personal';

/** What decides an anonymous page's audience, as a request or the page cache's key sees it. */
export interface AudienceRequest {
  url: string;
  headers: IncomingHttpHeaders;
  cookies: Record<string, string | undefined>;
}

/** The query a payload is asked with by this build's pages: `?build=<id>` (client/router/payload-url.ts). */
export const payloadBuildQuery = (buildId: string) => `build=${buildId}`;

/** A session token (cookie or Bearer) or a one-shot notice comes with the request: the answer is `personal`. */
export function personalRequest(request: AudienceRequest): boolean {
  const { cookies } = request;
  return (
    request.headers.authorization !== undefined ||
    cookies[cookieNames.session] !== undefined ||
    cookies[cookieNames.flash] !== undefined
  );
}

/** Whether this answer is `shared` or only `anonymous`; the caller has ruled out `personal`. */
export function anonymousAudience(page: PageRequest, request: AudienceRequest, buildId: string): Audience {
  const search = request.url.split(/\?(.*)/s)[1];
  if (page.answer === 'payload') return search === payloadBuildQuery(buildId) ? 'shared' : 'anonymous';
  if (cacheableQuery(page.route.query, search) === undefined) return 'anonymous';
  return offersThai(page, request) ? 'anonymous' : 'shared';
}

/** The English home for a first visit preferring Thai: a person is sent to /th, a crawler is not. */
export function offersThai(page: PageRequest, request: AudienceRequest): boolean {
  if (page.route.id !== 'home' || page.locale !== 'en') return false;
  if (request.cookies[cookieNames.language] !== undefined) return false;
  return preferredLocale(request.headers['accept-language']) === 'th';
}

export interface SharedCacheSettings {
  /** `s-maxage`: how long a shared cache answers an anonymous page without asking; 0: never shared. */
  sharedCacheSeconds: number;
  /** `stale-while-revalidate`: how long after that it may answer the old copy while it asks. */
  sharedCacheStaleSeconds: number;
}

/**
 * The headers of a page's answer, whoever writes it: the route for a render (routes/pages/), and
 * the page cache for a hit, which stores these with the body (plugins/page-cache.ts). Made once:
 * the answer to every request is one of these objects.
 */
export function pageHeadersFor(settings: SharedCacheSettings) {
  const { sharedCacheSeconds: shared, sharedCacheStaleSeconds: stale } = settings;
  const sharedControl =
    shared > 0
      ? `public, max-age=0, s-maxage=${shared}${stale > 0 ? `, stale-while-revalidate=${stale}` : ''}`
      : 'no-cache';
  const cacheControl: Record<Audience, string> = {
    shared: sharedControl,
    anonymous: 'no-cache',
    personal: 'private, no-store',
  };
  const headers = (type: string, audience: Audience, vary: string): StoredHeaders =>
    Object.freeze({ 'content-type': type, 'cache-control': cacheControl[audience], vary });
  const made = {
    document: Object.fromEntries(audiences.map((audience) => [audience, headers(html, audience, varies)])),
    home: Object.fromEntries(audiences.map((audience) => [audience, headers(html, audience, homeVaries)])),
    payload: Object.fromEntries(audiences.map((audience) => [audience, headers(json, audience, varies)])),
  } as Record<'document' | 'home' | 'payload', Record<Audience, StoredHeaders>>;
  return (page: PageRequest, audience: Audience): StoredHeaders => {
    if (page.answer === 'payload') return made.payload[audience];
    return made[page.route.id === 'home' && page.locale === 'en' ? 'home' : 'document'][audience];
  };
}

export type PageHeaders = ReturnType<typeof pageHeadersFor>;

const audiences: readonly Audience[] = ['shared', 'anonymous', 'personal'];

/**
 * What a page's answer depends on besides its address: the session (a cookie, or a Bearer token)
 * and the language cookie. The English home also reads Accept-Language (a first visit preferring
 * Thai is sent to /th). A crawler gets the same page as a person (client/lib/bot-visitor.ts).
 */
const varies = 'Authorization, Cookie';
export const homeVaries = 'Accept-Language, Authorization, Cookie';
