import type { IncomingHttpHeaders } from 'node:http';
import { preferredLocale } from './accept.ts';
import { cookieNames } from '../contract/cookies.ts';
import { isLocale } from '../contract/locales.ts';
import { normalQuery } from '../contract/page-query.ts';
import { isBotRequest } from './bots.ts';

/** Cookies that keep a request away from the page cache. */
export interface PersonalCookies {
  session: string;
  /** A notice after a form post, shown once. */
  flash: string;
}

export interface KeyRequest {
  url: string;
  headers: IncomingHttpHeaders;
  cookies: Record<string, string | undefined>;
}

const siteCookies: PersonalCookies = { session: cookieNames.session, flash: cookieNames.flash };

/** A session token (cookie or Bearer) or a one-shot notice came with the request: its answer is its own. */
export function personalRequest(request: KeyRequest, cookies: PersonalCookies = siteCookies): boolean {
  const sent = request.cookies;
  return (
    // An empty header is no token, to nginx's micro-cache as to accounts.ts.
    Boolean(request.headers.authorization) || sent[cookies.session] !== undefined || sent[cookies.flash] !== undefined
  );
}

/**
 * An anonymous page's cache key, or `undefined` when it must not be cached: everything its render
 * reads (path, declared query, bot or person, the language cookie and Accept-Language).
 */
export function pageCacheKey(
  request: KeyRequest,
  readQuery: readonly string[] | undefined,
  cookies: PersonalCookies,
): string | undefined {
  if (personalRequest(request, cookies)) return undefined;
  const { headers } = request;
  const [pathname = '/', search] = request.url.split(/\?(.*)/s);
  const query = cacheableQuery(readQuery, search);
  if (query === undefined) return undefined;
  const language = request.cookies[cookieNames.language];
  const chosen = language === undefined ? '-' : isLocale(language) ? language : '?';
  const preferred = preferredLocale(headers['accept-language']) ?? '-';
  const bot = isBotRequest(request) ? 'bot' : 'person';
  return `${pathname}?${query} lang=${chosen} accept=${preferred} ${bot}`;
}

/**
 * The query as written when it is the page's normal form (contract/page-query.ts), else undefined:
 * any other query is redirected or rendered uncached, so none can fill the cache.
 */
export function cacheableQuery(
  readQuery: readonly string[] | undefined,
  search: string | undefined,
): string | undefined {
  if (!search) return '';
  const normal = normalQuery(readQuery, new URLSearchParams(search));
  return normal === search ? normal : undefined;
}
