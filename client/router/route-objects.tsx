import type { ActionFunction, LoaderFunction, RouteObject, ShouldRevalidateFunction } from 'react-router';
import { locales, type Locale } from '../../contract/locales.ts';
import { LocaleErrorBoundary, RootErrorBoundary } from '../components/error-boundaries.tsx';
import { Layout } from '../components/layout.tsx';
import { Root } from '../components/root.tsx';
import { pageRoutes, type PageRoute } from '../../contract/routes.ts';
import { pageModules, type PageModule } from '../pages.ts';

/** How loaders get their data on one side: in-process on the server, `_payload.json` in the browser. */
export interface RouterSide {
  rootLoader: LoaderFunction;
  shouldRevalidateRoot?: ShouldRevalidateFunction;
  pageLoader: (route: PageRoute, locale: Locale) => LoaderFunction;
  /** Server only: a form posted without JavaScript. The browser uses the page module's `clientAction`. */
  pageAction?: (route: PageRoute, locale: Locale) => ActionFunction;
  /** Browser only: loads a language's strings before its pages render (the server has both). */
  loadLocale?: (locale: Locale) => Promise<void>;
  /** Browser only: loads a page's module with what it needs to render (its language's account strings). */
  loadPageModule?: (route: PageRoute, locale: Locale) => Promise<PageModule>;
  /** Server only: every page module, loaded at start (by page id); the browser loads them lazily. */
  pages?: ReadonlyMap<string, PageModule>;
}

export interface LocaleHandle {
  locale: Locale;
}

/** Route ids are `{locale}:{page id}`, e.g. `th:article`. */
export function pageRouteId(locale: Locale, route: PageRoute): string {
  return `${locale}:${route.id}`;
}

/**
 * The react-router route objects built from the one page table: a root, then a layout route per
 * locale (English unprefixed, Thai under /th) holding every page. Built once per side at start.
 */
export function createRouteObjects(side: RouterSide): RouteObject[] {
  const localeRoutes: RouteObject[] = locales.map((locale) => ({
    id: locale,
    ...(locale === 'en' ? {} : { path: locale }),
    handle: { locale } satisfies LocaleHandle,
    ...(side.loadLocale ? { lazy: async () => (await side.loadLocale!(locale), {}) } : {}),
    Component: Layout,
    ErrorBoundary: LocaleErrorBoundary,
    children: pageRoutes.map((route): RouteObject => ({
      id: pageRouteId(locale, route),
      ...(route.path === '' ? { index: true } : { path: route.path }),
      loader: side.pageLoader(route, locale),
      ...(route.action && side.pageAction ? { action: side.pageAction(route, locale) } : {}),
      ...(side.pages?.has(route.id)
        ? { Component: side.pages.get(route.id)!.default }
        : {
            lazy: async () => {
              const page = await (side.loadPageModule ? side.loadPageModule(route, locale) : pageModules[route.id]());
              return {
                Component: page.default,
                ...(route.action && !side.pageAction && page.clientAction ? { action: page.clientAction } : {}),
              };
            },
          }),
    })),
  }));
  return [
    {
      id: 'root',
      path: '/',
      Component: Root,
      ErrorBoundary: RootErrorBoundary,
      loader: side.rootLoader,
      ...(side.shouldRevalidateRoot ? { shouldRevalidate: side.shouldRevalidateRoot } : {}),
      children: localeRoutes,
    },
  ];
}
