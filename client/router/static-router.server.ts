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
import { pageName } from '../../contract/routes.ts';
import { createRouteObjects, type PageModule } from './route-objects.tsx';

/** What the server decided for this render (contract/render-state.ts): all the loaders read. */
const decided = createContext<RenderState>();

/** The page's data, or the error the language's boundary shows (react-router takes it there). */
const pageLoader: LoaderFunction = ({ context }) => {
  const state = context.get(decided);
  if (state.error) throw data(state.error, { status: state.error.statusCode });
  return state.data;
};

// The SSR bundle's routes: a page's module is loaded by its route's `lazy` on its first render, so a
// replica's start evaluates no page. Their loaders and actions only hand react-router what the
// server has decided.
const routes = createRouteObjects({
  loadPageModule: (route) => import(`../pages/${pageName(route.module)}.tsx`) as Promise<PageModule>,
  rootLoader: ({ context }) => ({ user: context.get(decided).user }),
  pageLoader: () => pageLoader,
  pageAction:
    () =>
    ({ context }) =>
      context.get(decided).action,
});

/**
 * The branch of the route tree Fastify matched (root, language, page), made once per page:
 * react-router converts every route it is given on each `createStaticRouter`, and a render needs
 * only these (decision 0037).
 */
const branches = new Map<string, RouteObject[]>();

function branchOf(state: Pick<RenderState, 'locale' | 'routeId'>): RouteObject[] {
  let branch = branches.get(state.routeId);
  if (branch === undefined) {
    const root = routes[0]!;
    const language = root.children!.find((route) => route.id === state.locale)!;
    const page = language.children!.find((route) => route.id === state.routeId);
    if (!page) throw new Error(`No page route ${state.routeId}`);
    branch = [{ ...root, children: [{ ...language, children: [page] } as RouteObject] } as RouteObject];
    branches.set(state.routeId, branch);
  }
  return branch;
}

/** The branch each render's context was made over, and its handler (whose routes have the page's module). */
const contextBranches = new WeakMap<StaticHandlerContext, { branch: RouteObject[]; handler: StaticHandler }>();

export function matchedBranch(context: StaticHandlerContext): RouteObject[] {
  return contextBranches.get(context)!.branch;
}

/** A static handler per branch, made with it. */
const handlers = new WeakMap<RouteObject[], StaticHandler>();

/** react-router's static context for a render: its query over the matched branch, whose loaders give the server's decisions. */
export async function staticContext(state: RenderState): Promise<StaticHandlerContext> {
  const branch = branchOf(state);
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
  contextBranches.set(context, { branch, handler });
  return context;
}

/** The router a render reads: react-router's, over the matched routes and the request's state. */
export function staticRouterFor(context: StaticHandlerContext) {
  return createStaticRouter(contextBranches.get(context)!.handler.dataRoutes, context);
}
