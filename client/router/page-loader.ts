import type { Params } from 'react-router';
import type { Locale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { safeRedirectPath } from '../../contract/navigation-guard.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { runRouteMiddleware } from './middleware.ts';
import { pageError, validationFailed } from './page-error.ts';

export interface PageLoadInput {
  route: PageRoute;
  locale: Locale;
  params: Params;
  url: URL;
  user: PublicUser | null;
  /** Fetches the page's data: the data source on the server, `_payload.json` on the client. */
  fetchData: () => Promise<unknown>;
}

/** The path as the spec's messages show it: decoded, with its query. */
export function displayPath(url: URL): string {
  const path = url.pathname + url.search;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/**
 * Everything that happens before a page renders, in the same order on the server and in the
 * browser: validate, middleware, data, then the query-string check against that data.
 */
export async function loadPage({ route, locale, params, url, user, fetchData }: PageLoadInput): Promise<unknown> {
  const fullPath = displayPath(url);
  if (route.validate && !route.validate(params)) validationFailed(fullPath);
  if (route.middleware?.length) {
    const redirectParam = url.searchParams.get('redirect');
    runRouteMiddleware(route.middleware, {
      user,
      locale,
      target: url.pathname + url.search,
      redirectTo: redirectParam === null ? null : safeRedirectPath(redirectParam, '') || null,
    });
  }
  const data = route.data ? await fetchData() : null;
  const problem = route.checkSearch?.(url.searchParams, data as never, fullPath);
  if (problem) pageError(problem.status, problem.message);
  return data;
}
