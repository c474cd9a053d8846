import { cookieNames } from '../../contract/cookies.ts';
import { preferredLocale } from '../accept.ts';
import { cacheableQuery, type KeyRequest } from '../page-cache-key.ts';
import type { StoredHeaders } from '../page-cache.ts';
import type { PageRequest } from './page-request.ts';

const html = 'text/html; charset=utf-8';
const json = 'application/json; charset=utf-8';

/**
 * Who may keep an answer (decision 0044): `shared` (a CDN or proxy), `anonymous` (the browser
 * only) or `personal` (nobody: a session, a notice or a cookie set).
 */
export type Audience = 'shared' | 'anonymous' | 'personal';

/** The query a payload is asked with by this build's pages: `?build=<id>` (client/router/payload-url.ts). */
export const payloadBuildQuery = (buildId: string) => `build=${buildId}`;

/** Whether this answer is `shared` or only `anonymous`; the caller has ruled out `personal`. */
export function anonymousAudience(page: PageRequest, request: KeyRequest, buildId: string): Audience {
  const search = request.url.split(/\?(.*)/s)[1];
  if (page.answer === 'payload') return search === payloadBuildQuery(buildId) ? 'shared' : 'anonymous';
  if (cacheableQuery(page.route.query, search) === undefined) return 'anonymous';
  return offersThai(page, request) ? 'anonymous' : 'shared';
}

/** The English home for a first visit preferring Thai: a person is sent to /th, a crawler is not. */
export function offersThai(page: PageRequest, request: KeyRequest): boolean {
  if (page.route.id !== 'home' || page.locale !== 'en') return false;
  if (request.cookies[cookieNames.language] !== undefined) return false;
  return preferredLocale(request.headers['accept-language']) === 'th';
}

const cacheControl: Record<Audience, string> = {
  // Seconds, so that a deploy or a content change shows within seconds (decision 0044).
  shared: 'public, max-age=0, s-maxage=5, stale-while-revalidate=30',
  anonymous: 'no-cache',
  personal: 'private, no-store',
};

const audiences: readonly Audience[] = ['shared', 'anonymous', 'personal'];

/** The session and language cookie, a Bearer token; the English home also reads Accept-Language. */
const varies = 'Authorization, Cookie';
export const homeVaries = 'Accept-Language, Authorization, Cookie';

const byAudience = (type: string, vary: string) =>
  Object.fromEntries(
    audiences.map((audience) => [
      audience,
      // Said of the identity answer too; lower case, as @fastify/compress looks for it.
      Object.freeze({
        'content-type': type,
        'cache-control': cacheControl[audience],
        vary: `${vary}, accept-encoding`,
      }),
    ]),
  ) as Record<Audience, StoredHeaders>;

const [document, home, payload] = [byAudience(html, varies), byAudience(html, homeVaries), byAudience(json, varies)];

/** The headers of a page's answer, for a render (routes/pages/) and a page-cache hit alike. */
export const pageHeaders = (page: PageRequest, audience: Audience): StoredHeaders =>
  (page.answer === 'payload' ? payload : page.route.id === 'home' && page.locale === 'en' ? home : document)[audience];
