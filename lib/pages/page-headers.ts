import type { StoredHeaders } from '../page-cache.ts';
import type { PageRequest } from './page-request.ts';

const html = 'text/html; charset=utf-8';
const json = 'application/json; charset=utf-8';

/**
 * The headers of a page's answer, whoever writes it: the route for a render (routes/pages/), and
 * the page cache for a hit, which stores these with the body (plugins/page-cache.ts). The English
 * home varies by language: a first visit preferring Thai is sent to /th.
 */
export function pageHeaders(page: PageRequest, signedIn: boolean): StoredHeaders {
  if (page.answer === 'payload') return { 'content-type': json, 'cache-control': 'private, no-cache' };
  const headers: StoredHeaders = { 'content-type': html, 'cache-control': signedIn ? 'private, no-cache' : 'no-cache' };
  if (page.route.id === 'home' && page.locale === 'en') headers.vary = offersThai;
  return headers;
}

/** What the English home's answer (and its redirect to /th) depends on. */
export const offersThai = 'Accept-Language, Cookie';
