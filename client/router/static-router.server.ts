import {
  createContext,
  createStaticHandler,
  createStaticRouter,
  data,
  RouterContextProvider,
  type LoaderFunction,
  type RouteObject,
  type StaticHandler,
  type StaticHandlerContext,
} from 'react-router';
import type { RenderState } from '../../contract/render-state.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { pageModules } from '../pages.ts';
import { createRouteObjects } from './route-objects.tsx';

/** What the server decided for this render (contract/render-state.ts): all the loaders read. */
const decided = createContext<RenderState>();

/** The page's data, or the error its boundary shows (react-router takes it there, as the server did). */
const pageLoader: LoaderFunction = ({ context }) => {
  const state = context.get(decided);
  if (state.error && state.matches.length > 0) throw data(state.error.info, { status: state.error.info.statusCode });
  return state.page?.data;
};

// The SSR bundle's routes: every page module loaded once at start, so no render resolves a lazy
// route (the browser keeps loading each page's chunk on demand). Their loaders and actions only
// hand react-router what the server has decided.
const loadedPages = new Map(
  await Promise.all(pageRoutes.map(async (route) => [route.id, await pageModules[route.id]()] as const)),
);
const routes = createRouteObjects({
  pages: loadedPages,
  rootLoader: ({ context }) => {
    const state = context.get(decided);
    if (state.error && state.matches.length === 0)
      throw data(state.error.info, { status: state.error.info.statusCode });
    return { user: state.user };
  },
  pageLoader: () => pageLoader,
  pageAction:
    () =>
    ({ context }) =>
      context.get(decided).action?.state,
});

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

function branchOf(ids: readonly string[]): RouteObject[] {
  const key = ids.join(' ');
  let branch = branches.get(key);
  if (branch === undefined) {
    branch = ids.length ? prune(routes, new Set(ids)) : routes;
    branches.set(key, branch);
  }
  return branch;
}

export function matchedBranch(context: StaticHandlerContext): RouteObject[] {
  return branchOf(context.matches.map((match) => match.route.id));
}

/** A static handler per branch, made with it. */
const handlers = new WeakMap<RouteObject[], StaticHandler>();

/** react-router's static context for a render: its query over the matched branch, whose loaders give the server's decisions. */
export async function staticContext(state: RenderState): Promise<StaticHandlerContext> {
  const branch = branchOf(state.matches.map((match) => match.id));
  let handler = handlers.get(branch);
  if (!handler) {
    handler = createStaticHandler(branch);
    handlers.set(branch, handler);
  }
  const requestContext = new RouterContextProvider();
  requestContext.set(decided, state);
  const { pathname, search } = state;
  const context = await handler.query(
    new Request(`http://localhost${pathname}${search}`, { method: state.action ? 'POST' : 'GET' }),
    { requestContext, normalizePath: () => ({ pathname, search, hash: '' }) },
  );
  if (context instanceof Response) throw new Error(`${pathname}: a render's loaders answered a response`);
  context.statusCode = state.status;
  return context;
}

/** The router a render reads: react-router's, over the matched routes and the request's state. */
export function staticRouterFor(context: StaticHandlerContext) {
  return createStaticRouter(matchedBranch(context), context);
}
