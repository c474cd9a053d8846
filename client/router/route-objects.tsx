import type { ComponentType } from 'react';
import type {
  ActionFunction,
  LoaderFunction,
  MiddlewareFunction,
  RouteObject,
  ShouldRevalidateFunction,
} from 'react-router';
import type { Locale } from '../../contract/locales.ts';
import type { EmptyFormErrors } from '../../contract/required-fields.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { routeTree, type PageHandle, type RouteNode } from '../../contract/route-tree.ts';
import { LocaleErrorBoundary, RootErrorBoundary } from '../components/error-boundaries.tsx';
import { Layout } from '../components/layout.tsx';
import { Root } from '../components/root.tsx';

/** What a page's component module, `client/<route.module>`, exports. */
export interface PageModule {
  default: ComponentType;
  emptyFormErrors?: EmptyFormErrors;
}

/** What one side adds to the route tree: the browser loads and acts, the server only renders. */
export interface RouterSide {
  /** Browser only: the root's data (who is logged in) and when to read it again. */
  rootLoader?: LoaderFunction;
  shouldRevalidateRoot?: ShouldRevalidateFunction;
  /** Browser only: what runs before a page's loader and action (its query, validate, middleware). */
  pageMiddleware?: (route: PageRoute, locale: Locale) => MiddlewareFunction;
  /** Browser only: a navigation's loader (`_payload.json`). */
  pageLoader?: (route: PageRoute, locale: Locale) => LoaderFunction;
  /** Browser only: a form submitted with JavaScript, posted to the page's own address. */
  pageAction?: (route: PageRoute, locale: Locale) => ActionFunction;
  /** Browser only: loads a language's strings before its pages render (the server has both). */
  loadLocale?: (locale: Locale) => Promise<void>;
  /** Loads a page's module with what it needs to render (in the browser, its language's account strings). */
  loadPageModule?: (route: PageRoute, locale: Locale) => Promise<PageModule>;
}

export interface LocaleHandle {
  locale: Locale;
}

function pageObject(node: RouteNode, route: PageRoute, locale: Locale, side: RouterSide): RouteObject {
  return {
    id: node.id,
    ...(node.index ? { index: true } : { path: node.path, caseSensitive: true }),
    handle: { page: route } satisfies PageHandle,
    ...(side.pageMiddleware ? { middleware: [side.pageMiddleware(route, locale)] } : {}),
    ...(side.pageLoader ? { loader: side.pageLoader(route, locale) } : {}),
    ...(route.action && side.pageAction ? { action: side.pageAction(route, locale) } : {}),
    ...(side.loadPageModule && {
      lazy: async () => ({ Component: (await side.loadPageModule!(route, locale)).default }),
    }),
  };
}

/** react-router's route objects: the one route tree (contract/route-tree.ts) with this side's parts. */
export function createRouteObjects(side: RouterSide): RouteObject[] {
  return routeTree.map((root) => ({
    id: root.id,
    path: root.path!,
    Component: Root,
    ErrorBoundary: RootErrorBoundary,
    ...(side.rootLoader ? { loader: side.rootLoader } : {}),
    ...(side.shouldRevalidateRoot ? { shouldRevalidate: side.shouldRevalidateRoot } : {}),
    children: (root.children ?? []).map((localeNode) => {
      const locale = localeNode.locale!;
      return {
        id: localeNode.id,
        ...(localeNode.path ? { path: localeNode.path, caseSensitive: true } : {}),
        handle: { locale } satisfies LocaleHandle,
        ...(side.loadLocale ? { lazy: async () => (await side.loadLocale!(locale), {}) } : {}),
        Component: Layout,
        ErrorBoundary: LocaleErrorBoundary,
        children: (localeNode.children ?? []).map((node) => pageObject(node, node.page!, locale, side)),
      };
    }),
  }));
}
