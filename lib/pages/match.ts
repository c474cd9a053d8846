import { LRUCache } from 'lru-cache';
import { matchRoutes, type RouteObject } from 'react-router';
import type { Locale } from '../../contract/locales.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { routeTree, type RouteMatch, type RouteNode } from '../../contract/route-tree.ts';

export interface PageMatch {
  route: PageRoute;
  locale: Locale;
  params: Record<string, string | undefined>;
  /** Root to page. */
  matches: RouteMatch[];
  /** The route whose error boundary shows this page's errors. */
  boundaryId: string;
}

// The tree is plain data (ids, paths), which react-router's matcher reads as route objects.
const tree = routeTree as unknown as RouteObject[];
const nodes = new Map<string, RouteNode>();
const addNodes = (list: readonly RouteNode[]): void =>
  list.forEach((node) => (nodes.set(node.id, node), addNodes(node.children ?? [])));
addNodes(routeTree);

/** `matchRoutes` ranks the whole tree on every call: the answers are kept per pathname, a bounded number. */
const remembered = new LRUCache<string, { match: PageMatch | null }>({ max: 2000 });

function toPageMatch(pathname: string): PageMatch | null {
  const found = matchRoutes(tree, pathname);
  if (!found) return null;
  const matches: RouteMatch[] = found.map(({ route, params, pathname: matched, pathnameBase }) => ({
    id: route.id!,
    params,
    pathname: matched,
    pathnameBase,
  }));
  const leaf = nodes.get(matches[matches.length - 1]!.id);
  const boundary = matches.findLast((match) => nodes.get(match.id)?.errorBoundary);
  if (!leaf?.page || !leaf.locale || !boundary) return null;
  return {
    route: leaf.page,
    locale: leaf.locale,
    params: found[found.length - 1]!.params,
    matches,
    boundaryId: boundary.id,
  };
}

/** The page a pathname opens, or null (no page of the table takes it). */
export function matchPage(pathname: string): PageMatch | null {
  let entry = remembered.get(pathname);
  if (entry === undefined) {
    entry = { match: toPageMatch(pathname) };
    remembered.set(pathname, entry);
  }
  return entry.match;
}
