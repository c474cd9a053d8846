import { LRUCache } from 'lru-cache';
import {
  isRouteErrorResponse,
  matchRoutes,
  UNSAFE_ErrorResponseImpl as ErrorResponseImpl,
  type Location,
  type StaticHandlerContext,
} from 'react-router';
import { directLoaders, handler, isPassThrough, type LoaderContext } from './server-router.ts';

type Matches = StaticHandlerContext['matches'];

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * The state react-router's static handler `query` makes of a GET, made directly (decision 0018).
 * Enough because the loaders of client/router/server-router.ts only return data or throw a
 * redirect or `data()`; anything else goes to `query` itself (test/ssr/document-query.test.ts).
 */
export async function queryDocument(url: URL, context: LoaderContext): Promise<StaticHandlerContext | Response> {
  const location: Location = {
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    state: null,
    key: 'default',
    mask: undefined,
  };
  const matches = matchPath(url.pathname);
  if (!matches) return query(url, context);

  const loading = matches.map(
    (match) =>
      directLoaders.get(match.route.id)?.({ url, params: match.params, context }) ?? Promise.resolve(undefined),
  );
  const results = await Promise.allSettled(loading);

  const loaderData: Record<string, unknown> = {};
  let errors: Record<string, unknown> | null = null;
  let statusCode = 200;
  for (const [index, result] of results.entries()) {
    if (loading[index] === undefined) continue;
    const { id } = matches[index]!.route;
    if (result.status === 'fulfilled') {
      loaderData[id] = result.value;
      continue;
    }
    const thrown: unknown = result.reason;
    if (thrown instanceof Response) {
      if (redirectStatuses.has(thrown.status) && thrown.headers.has('location')) return thrown;
      return query(url, context);
    }
    const error = isPassThrough(thrown) ? toErrorResponse(thrown as DataWithInit) : thrown;
    const boundary = nearestBoundary(matches, index);
    errors ??= {};
    if (errors[boundary] === undefined) errors[boundary] = error;
    if (statusCode === 200) statusCode = isRouteErrorResponse(error) ? error.status : 500;
  }
  return {
    basename: '/',
    location,
    matches,
    loaderData,
    actionData: null,
    errors,
    statusCode,
    loaderHeaders: {},
    actionHeaders: {},
  };
}

/**
 * `matchRoutes` compiles the whole route tree on every call (decision 0018), so matches are kept
 * per pathname, a bounded number; renders copy them, never mutate (`staticRouterFor`).
 */
export function matchPath(pathname: string): Matches | null {
  let remembered = rememberedMatches.get(pathname);
  if (remembered === undefined) {
    remembered = { matches: matchRoutes<Matches[number]['route']>(handler.dataRoutes, pathname) };
    rememberedMatches.set(pathname, remembered);
  }
  return remembered.matches;
}

const rememberedMatches = new LRUCache<string, { matches: Matches | null }>({ max: 2000 });

function query(url: URL, context: LoaderContext): Promise<StaticHandlerContext | Response> {
  return handler.query(new Request(url), { requestContext: context });
}

interface DataWithInit {
  data: unknown;
  init: ResponseInit | null;
}

/** What react-router makes of a thrown `data(value, { status })`. */
function toErrorResponse({ data, init }: DataWithInit) {
  return new ErrorResponseImpl(init?.status ?? 500, init?.statusText ?? 'Internal Server Error', data);
}

/** The id of the nearest route at or above `index` with an error boundary (the root otherwise). */
function nearestBoundary(matches: Matches, index: number): string {
  for (let at = index; at >= 0; at--) if (matches[at]!.route.hasErrorBoundary) return matches[at]!.route.id;
  return matches[0]!.route.id;
}
