import { LRUCache } from 'lru-cache';
import {
  createStaticHandler,
  createStaticRouter,
  data,
  matchRoutes,
  redirect,
  type Params,
  type StaticHandlerContext,
} from 'react-router';
import { locales, splitLocale, type Locale } from '../../contract/locales.ts';
import { isPageNotFound } from '../../contract/page-data.ts';
import { safeRedirectPath } from '../../contract/navigation-guard.ts';
import { pageRoutes, type PageRoute } from '../../contract/routes.ts';
import { renderErrorLog } from '../components/error-boundaries.tsx';
import { pageModules as pageBindings } from '../pages.ts';
import { displayPath, loadPage } from './page-loader.ts';
import { notFound, pageError, toPageErrorInfo } from './page-error.ts';
import type { RendererSite, ServerRequestContext } from './renderer-api.ts';
import { createRouteObjects, pageRouteId } from './route-objects.tsx';

// The server's side of the route table, built once at start: the static handler every request is
// matched against, the router template each render copies, and how a request reaches them.

/** What the route loaders and actions get as react-router's request context. */
export interface LoaderContext {
  site: RendererSite;
  request: ServerRequestContext;
}

/** Marks a form action's redirect that leaves the site on purpose (Play to PLAY_URL). */
export const externalRedirectHeader = 'x-asdas-external-redirect';

/** A redirect from route middleware: 302 unless it asked for another redirect status. */
export function redirectStatus(status: number): number {
  return [301, 302, 303, 307, 308].includes(status) ? status : 302;
}

export function isPassThrough(error: unknown): boolean {
  return (
    error instanceof Response ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'DataWithResponseInit')
  );
}

/** A loader needs only the URL: `_payload.json` (client/entry-server.tsx) calls these without a `Request`. */
export type DirectLoader = (input: { url: URL; params: Params; context: LoaderContext }) => Promise<unknown>;

async function serverData(
  { site, request }: LoaderContext,
  route: PageRoute,
  locale: Locale,
  url: URL,
  params: Params,
) {
  try {
    return await site.dataSource(route.data!)({
      locale,
      params,
      path: splitLocale(url.pathname).path,
      user: request.user,
      sessionId: request.sessionId ?? null,
    });
  } catch (error) {
    if (isPageNotFound(error)) notFound(displayPath(url));
    throw error;
  }
}

async function formFields(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of await request.formData()) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

const rootLoader = async ({ context }: { context: LoaderContext }) => ({ user: context.request.user });

function pageLoader(route: PageRoute, locale: Locale): DirectLoader {
  return async ({ url, params, context }) => {
    try {
      return await loadPage({
        route,
        locale,
        params,
        url,
        user: context.request.user,
        fetchData: () => serverData(context, route, locale, url, params),
      });
    } catch (error) {
      if (isPassThrough(error)) throw error;
      context.request.logError(error, renderErrorLog);
      const info = toPageErrorInfo(error, { exposeDetails: context.site.dev });
      return pageError(info.statusCode, info.message, { fatal: true, unhandled: info.unhandled, stack: info.stack });
    }
  };
}

/** Every route's loader by route id, as the server calls it (see DirectLoader). */
export const directLoaders = new Map<string, DirectLoader>([['root', rootLoader]]);

// Every page module, loaded once at start: the server's routes carry their components directly,
// so no request resolves a lazy route (the browser keeps loading each page's chunk on demand).
const pageModulesById = new Map(
  await Promise.all(pageRoutes.map(async (route) => [route.id, await pageBindings[route.id]()] as const)),
);

const routes = createRouteObjects({
  pages: pageModulesById,
  pageAction:
    (route, locale) =>
    async ({ request, context }) => {
      const url = new URL(request.url);
      const redirectParam = url.searchParams.get('redirect');
      const result = await (context as LoaderContext).request.runFormAction(route.action!, {
        locale,
        fields: await formFields(request),
        redirectTo: redirectParam === null ? null : safeRedirectPath(redirectParam, '') || null,
      });
      // 303: the browser follows with a GET, so a reload never posts the form again.
      if (result.ok)
        throw redirect(result.redirect, {
          status: 303,
          headers: result.external ? { [externalRedirectHeader]: '1' } : {},
        });
      const { ok: _ok, status, ...state } = result;
      return data(state, { status });
    },
  rootLoader: ({ context }) => rootLoader({ context: context as LoaderContext }),
  pageLoader: (route, locale) => {
    const load = pageLoader(route, locale);
    directLoaders.set(pageRouteId(locale, route), load);
    return ({ request, params, context }) =>
      load({ url: new URL(request.url), params, context: context as LoaderContext });
  },
});

export const handler = createStaticHandler(routes);

type Matches = StaticHandlerContext['matches'];

/**
 * A payload's matches. `matchRoutes` ranks the whole route tree on every call (the static handler
 * does it once, but offers no match without a query), so they are kept per pathname, a bounded number.
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
export const pageModules = new Map(
  locales.flatMap((locale) => pageRoutes.map((route) => [pageRouteId(locale, route), route.module] as const)),
);

/** The router a render reads: react-router's, over the static handler's routes and the request's state. */
export function staticRouterFor(state: StaticHandlerContext) {
  return createStaticRouter(handler.dataRoutes, state);
}

/** A form posted without JavaScript, as react-router's static handler takes it. */
export function requestFor(url: string, form: string): Request {
  return new Request(new URL(url, 'http://localhost'), {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
