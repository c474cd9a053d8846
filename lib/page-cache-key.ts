import type { IncomingHttpHeaders } from 'node:http';
import { preferredLocale } from './accept.ts';
import { cookieNames } from '../contract/cookies.ts';
import { isLocale, splitLocale } from '../contract/locales.ts';
import { pageRoutes } from '../contract/routes.ts';
import { isBotRequest } from './bots.ts';

/** The cookies that make a request personal or one-off: never served from, or stored in, the page cache. */
export interface PersonalCookies {
  /** The login session (plugins/accounts.ts). */
  session: string;
  /** A one-shot notice after a form post (client/lib/flash.ts): the page shows it once. */
  flash: string;
}

export interface KeyRequest {
  url: string;
  headers: IncomingHttpHeaders;
  cookies: Record<string, string | undefined>;
}

/**
 * The page-cache key of an anonymous GET/HEAD of a page, or `undefined` when the response must
 * not come from the cache (a session cookie, an Authorization header, a flash cookie, a query
 * parameter the page does not declare).
 *
 * It holds everything the server reads to render an anonymous page (routes/pages.ts, plugins/ssr.ts): the path;
 * the query parameters the page declares (`cacheQuery`), sorted; whether the visitor is a bot
 * (isbot, as the renderer decides); and the two inputs of the `/` → `/th` offer: the language
 * cookie (a chosen language, any other value, or none) and the preferred language of
 * Accept-Language. The page's own language is in its path (`/th/...`).
 */
export function pageCacheKey(request: KeyRequest, cookies: PersonalCookies): string | undefined {
  const { headers } = request;
  if (headers.authorization !== undefined) return undefined;
  if (request.cookies[cookies.session] !== undefined || request.cookies[cookies.flash] !== undefined) return undefined;
  const [pathname = '/', search] = request.url.split(/\?(.*)/s);
  const query = cacheableQuery(pathname, search);
  if (query === undefined) return undefined;
  const language = request.cookies[cookieNames.language];
  const chosen = language === undefined ? '-' : isLocale(language) ? language : '?';
  const preferred = preferredLocale(headers['accept-language']) ?? '-';
  const bot = isBotRequest(request) ? 'bot' : 'person';
  return `${pathname}?${query} lang=${chosen} accept=${preferred} ${bot}`;
}

/** The parameters each page's cached copies differ by (contract/routes.ts `cacheQuery`), by path. */
const pageQueries = new Map(pageRoutes.filter((route) => route.cacheQuery).map((route) => [`/${route.path}`, new Set(route.cacheQuery)]));

/**
 * The query as the key holds it (sorted: `?b=1&a=2` is `?a=2&b=1`), or undefined when it has a
 * parameter the page does not declare: such a page is rendered but never kept, so made-up query
 * strings cannot fill the cache (it is not served the plain page either: its links keep the query).
 */
function cacheableQuery(pathname: string, search: string | undefined): string | undefined {
  if (!search) return '';
  const declared = pageQueries.get(splitLocale(pathname).path);
  const params = new URLSearchParams(search);
  for (const name of params.keys()) if (!declared?.has(name)) return undefined;
  params.sort();
  return params.toString();
}
