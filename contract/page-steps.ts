import type { Locale } from './locales.ts';
import { displayPath, type PageErrorInfo, validationFailedError } from './page-error.ts';
import type { PublicUser } from './page-data.ts';
import { normalQuery } from './page-query.ts';
import { middlewareRedirect } from './route-middleware.ts';
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

/**
 * Before a page's data (in the browser, react-router's middleware): the query's one form,
 * validate, then the page's middleware. Undefined: on to the data.
 */
export function stepsBeforeData({ route, locale, params, url, user }: PageStepsInput): PageStepsOutcome | undefined {
  const query = route.query && normalQuery(route.query, url.searchParams);
  if (query !== undefined && query !== url.search.slice(1)) {
    return { type: 'redirect', location: query ? `${url.pathname}?${query}` : url.pathname, permanent: true };
  }
  if (route.validate && !route.validate(params))
    return { type: 'error', error: validationFailedError(displayPath(url)) };
  const location = middlewareRedirect(route.middleware, { user, locale, url });
  return location === undefined ? undefined : { type: 'redirect', location };
}

/** The page's data (`fetchData`: its loader, or `_payload.json`), then the query against it. */
export async function dataStep(
  route: PageRoute,
  url: URL,
  fetchData: () => Promise<unknown>,
): Promise<PageStepsOutcome> {
  const data = route.data ? await fetchData() : null;
  const problem = route.checkSearch?.(url.searchParams, data, displayPath(url));
  if (!problem) return { type: 'data', data };
  const { status, message, detail } = problem;
  return { type: 'error', error: { statusCode: status, message, fatal: false, ...(detail ? { detail } : {}) } };
}

/** Everything before a page renders, as the server runs it for a document, a payload or a form. */
export async function runPageSteps(
  input: PageStepsInput,
  fetchData: () => Promise<unknown>,
): Promise<PageStepsOutcome> {
  return stepsBeforeData(input) ?? dataStep(input.route, input.url, fetchData);
}
