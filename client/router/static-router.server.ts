import { createStaticRouter, type RouteObject, type StaticHandlerContext } from 'react-router';
import type { RenderState } from '../../contract/render-state.ts';
import { rootRouteId } from '../../contract/route-tree.ts';
import { pageRoutes } from '../../contract/routes.ts';
import type { PageErrorInfo } from '../../contract/page-error.ts';
import { pageModules } from '../pages.ts';
import { createRouteObjects } from './route-objects.tsx';

// The SSR bundle's routes: every page module loaded once at start, so no render resolves a lazy
// route (the browser keeps loading each page's chunk on demand). No loader or action: the server
// has decided everything a render shows (contract/render-state.ts).
const loadedPages = new Map(
  await Promise.all(pageRoutes.map(async (route) => [route.id, await pageModules[route.id]()] as const)),
);
const routes = createRouteObjects({ pages: loadedPages });

/**
 * The matched branch of the route tree (root, language, page), made once per branch: react-router
 * converts every route it is given on each `createStaticRouter`, and a render needs only the
 * matched ones (decision 0037). Keys come from the route table, so the map stays as small as it is.
 */
const branches = new Map<string, RouteObject[]>();

function prune(tree: RouteObject[], ids: ReadonlySet<string>): RouteObject[] {
  return tree
    .filter((route) => ids.has(route.id!))
    .map<RouteObject>((route) => (route.children ? { ...route, children: prune(route.children, ids) } : route));
}

export function matchedBranch(context: StaticHandlerContext): RouteObject[] {
  const ids = context.matches.map((match) => match.route.id);
  const key = ids.join(' ');
  let branch = branches.get(key);
  if (branch === undefined) {
    branch = prune(routes, new Set(ids));
    branches.set(key, branch);
  }
  return branch;
}

/**
 * An error as react-router's boundaries and hydration read it (`isRouteErrorResponse`). The
 * statusText is the one react-router gives a thrown `data()` that names none.
 */
function routeErrorResponse(info: PageErrorInfo) {
  return { status: info.statusCode, statusText: 'Internal Server Error', internal: false, data: info };
}

/** react-router's static context for a render: the router's state, made from the server's decisions. */
export function staticContext(state: RenderState): StaticHandlerContext {
  return {
    basename: '/',
    location: { pathname: state.pathname, search: state.search, hash: '', state: null, key: 'default' },
    // createStaticRouter swaps each route for its own by id.
    matches: state.matches.map(({ id, ...match }) => ({ ...match, route: { id } })),
    loaderData: {
      [rootRouteId]: { user: state.user },
      ...(state.page ? { [state.page.routeId]: state.page.data } : {}),
    },
    actionData: state.action ? { [state.action.routeId]: state.action.state } : null,
    errors: state.error ? { [state.error.boundaryId]: routeErrorResponse(state.error.info) } : null,
    statusCode: state.status,
    loaderHeaders: {},
    actionHeaders: {},
  };
}

/** The router a render reads: react-router's, over the matched routes and the request's state. */
export function staticRouterFor(context: StaticHandlerContext) {
  return createStaticRouter(matchedBranch(context), context);
}
