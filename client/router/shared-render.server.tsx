import { Fragment, StrictMode, createContext, useContext, type ComponentType, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { LRUCache } from 'lru-cache';
import {
  Outlet,
  StaticRouterProvider,
  createStaticRouter,
  type RouteObject,
  type StaticHandlerContext,
} from 'react-router';
import { SWRConfig } from 'swr';
import type { RenderState } from '../../contract/render-state.ts';
import { routeTree, type RouteNode } from '../../contract/route-tree.ts';
import { AccountNavigation } from '../components/navigation-list.tsx';
import type { VisitorPartName } from '../components/visitor-part.tsx';
import { useMatchedLocale } from '../hooks.ts';
import { TranslationProvider } from '../i18n.ts';
import { swrConfig } from '../lib/swr-config.ts';
import { AccountEntry } from '../pages/home.tsx';
import { matchedBranch } from './static-router.server.ts';

// A signed-in visitor's copy of a shared page: the page drawn for no one with markers (the shell),
// filled per request with the visitor parts drawn under the same router state. Decision 0037.

const parts: Record<VisitorPartName, ComponentType> = {
  'account-navigation': AccountNavigation,
  'home-account-entry': AccountEntry,
};

const marker = /<template data-visitor-part="([a-z-]+)"><\/template>/;
const partEnd = '<template data-visitor-part-end=""></template>';

/** The shell cut at its markers: text, then a part's name, then text ... */
export interface Shell {
  pieces: string[];
}

export function shellOf(html: string): Shell {
  return { pieces: html.split(marker) };
}

/** Leaf route ids of shared pages, and whether the page reads a query (contract/page-query.ts keeps it in one form). */
const sharedLeaves = new Map<string, boolean>();
(function collect(nodes: readonly RouteNode[]) {
  for (const node of nodes) {
    if (node.page?.sharedRender) sharedLeaves.set(node.id, (node.page.query?.length ?? 0) > 0);
    if (node.children) collect(node.children);
  }
})(routeTree);

/** The page data a shell is kept with, when this render may use one; otherwise undefined. */
export function sharedData(state: RenderState): object | undefined {
  if (!state.user || state.flash || state.action || state.error || state.status !== 200) return undefined;
  const { routeId, data } = state;
  const readsQuery = sharedLeaves.get(routeId);
  // A query the page does not read would make a shell per spelling: those render whole.
  if (readsQuery === undefined || (state.search !== '' && !readsQuery)) return undefined;
  // Content data is built once and frozen: the same object for every request until it changes.
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data)) return undefined;
  return data;
}

export interface SharedDraw {
  whole: () => string;
  shell: () => Promise<string>;
  /** The providers above the router, around the parts' tree. */
  wrap: (tree: ReactNode) => ReactNode;
}

/** Shells by address (an LRU), each valid for its page data; the first per data is checked against a whole render. */
export function createSharedRenders(maxShells = 200) {
  const shells = new LRUCache<string, { data: object; shell: Shell }>({ max: maxShells });
  const checked = new WeakSet<object>();
  const unshared = new WeakSet<object>();
  return {
    async body(
      state: RenderState,
      data: object,
      context: StaticHandlerContext,
      draw: SharedDraw,
    ): Promise<{ body: string; warning?: string }> {
      if (unshared.has(data)) return { body: draw.whole() };
      const key = `${state.routeId} ${state.pathname}${state.search} ${state.isBot}`;
      const kept = shells.get(key);
      if (kept?.data === data) return { body: fillShell(kept.shell, context, draw.wrap) };
      const shell = shellOf(await draw.shell());
      const body = fillShell(shell, context, draw.wrap);
      if (!checked.has(data)) {
        const whole = draw.whole();
        if (whole !== body) {
          unshared.add(data);
          return {
            body: whole,
            warning: `${state.pathname}: not shared, it differs by visitor outside its visitor parts`,
          };
        }
        checked.add(data);
      }
      shells.set(key, { data, shell });
      return { body };
    },
  };
}

const Drawn = createContext<readonly VisitorPartName[]>([]);

/** The root's providers that the parts read (root.tsx), then the parts, each followed by `partEnd`. */
function PartsRoot() {
  return (
    <TranslationProvider locale={useMatchedLocale()}>
      <SWRConfig value={swrConfig}>
        <Outlet />
      </SWRConfig>
    </TranslationProvider>
  );
}

function PartsLeaf() {
  return useContext(Drawn).map((name, index) => {
    const Part = parts[name];
    return (
      <Fragment key={index}>
        <Part />
        <template data-visitor-part-end="" />
      </Fragment>
    );
  });
}

/** The matched branch with the parts' components in place of the page's, made once per branch. */
const partBranches = new WeakMap<RouteObject[], RouteObject[]>();

function partsBranch(branch: RouteObject[], depth = 0): RouteObject[] {
  return branch.map((route) => ({
    id: route.id!,
    ...(route.index ? { index: true as const } : { path: route.path }),
    handle: route.handle as unknown,
    ...(depth === 0 ? { Component: PartsRoot } : route.children?.length ? {} : { Component: PartsLeaf }),
    ...(route.children && !route.index ? { children: partsBranch(route.children, depth + 1) } : {}),
  })) as RouteObject[];
}

/** The shell's parts drawn for this request's visitor, in the shell's order. */
function drawParts(shell: Shell, context: StaticHandlerContext, wrap: (tree: ReactNode) => ReactNode): string[] {
  const names = shell.pieces.filter((_, index) => index % 2 === 1) as VisitorPartName[];
  const branch = matchedBranch(context);
  let routes = partBranches.get(branch);
  if (!routes) {
    routes = partsBranch(branch);
    partBranches.set(branch, routes);
  }
  const html = renderToString(
    <StrictMode>
      {wrap(
        <Drawn.Provider value={names}>
          <StaticRouterProvider router={createStaticRouter(routes, context)} context={context} hydrate={false} />
        </Drawn.Provider>,
      )}
    </StrictMode>,
  );
  return html.split(partEnd);
}

/** The shell with this request's parts in the markers' places. */
export function fillShell(shell: Shell, context: StaticHandlerContext, wrap: (tree: ReactNode) => ReactNode): string {
  const drawn = drawParts(shell, context, wrap);
  let html = shell.pieces[0]!;
  for (let index = 1; index < shell.pieces.length; index += 2) {
    html += drawn[(index - 1) / 2]! + shell.pieces[index + 1]!;
  }
  return html;
}
