import type { Locale } from './locales.ts';
import { safeRedirectPath } from './navigation-guard.ts';
import { displayPath, type PageErrorInfo, validationFailedError } from './page-error.ts';
import type { PublicUser } from './page-data.ts';
import { normalQuery } from './page-query.ts';
import { runRouteMiddleware } from './route-middleware.ts';
import type { PageRoute } from './routes.ts';

export interface PageStepsInput {
  route: PageRoute;
  locale: Locale;
  params: Readonly<Record<string, string | undefined>>;
  url: URL;
  user: PublicUser | null;
}

/** What the steps before a render decide: the page's data, somewhere else to go, or an error. */
export type PageStepsOutcome =
  | { type: 'data'; data: unknown }
  | { type: 'redirect'; location: string; permanent?: boolean }
  | { type: 'error'; error: PageErrorInfo };

/** The `redirect` query parameter when it is a path of this site. */
export function redirectParam(url: URL): string | null {
  const value = url.searchParams.get('redirect');
  return value === null ? null : safeRedirectPath(value, '') || null;
}

/**
 * What happens before a page renders, server and browser alike: the query's one form, validate,
 * middleware, data (`fetchData`: the source, or `_payload.json`), then the query against it.
 */
export async function runPageSteps(
  { route, locale, params, url, user }: PageStepsInput,
  fetchData: () => Promise<unknown>,
): Promise<PageStepsOutcome> {
  const fullPath = displayPath(url);
  const query = route.query && normalQuery(route.query, url.searchParams);
  if (query !== undefined && query !== url.search.slice(1)) {
    return { type: 'redirect', location: query ? `${url.pathname}?${query}` : url.pathname, permanent: true };
  }
  if (route.validate && !route.validate(params)) return { type: 'error', error: validationFailedError(fullPath) };
  if (route.middleware?.length) {
    const location = runRouteMiddleware(route.middleware, {
      user,
      locale,
      target: url.pathname + url.search,
      redirectTo: redirectParam(url),
    });
    if (location !== undefined) return { type: 'redirect', location };
  }
  const data = route.data ? await fetchData() : null;
  const problem = route.checkSearch?.(url.searchParams, data, fullPath);
  if (problem) {
    const { status, message, detail } = problem;
    return { type: 'error', error: { statusCode: status, message, fatal: false, ...(detail ? { detail } : {}) } };
  }
  return { type: 'data', data };
}
