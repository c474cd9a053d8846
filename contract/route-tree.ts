import { locales, type Locale } from './locales.ts';
import { pageRoutes, type PageRoute } from './routes.ts';

/** The route table as react-router's tree (a root, a layout per locale, the pages), without components. */
export interface RouteNode {
  id: string;
  path?: string;
  index?: true;
  /** As Fastify's router, which serves the same patterns: `/LOGIN` is no page. */
  caseSensitive?: true;
  locale?: Locale;
  page?: PageRoute;
  children?: RouteNode[];
}

/** A page's react-router `handle` (client/router/route-objects.tsx): its entry of the route table. */
export interface PageHandle {
  page: PageRoute;
}

/** Route ids are `{locale}:{page id}`, e.g. `th:article`. */
export function pageRouteId(locale: Locale, route: PageRoute): string {
  return `${locale}:${route.id}`;
}

export const routeTree: readonly RouteNode[] = [
  {
    id: 'root',
    path: '/',
    children: locales.map((locale) => ({
      id: locale,
      ...(locale === 'en' ? {} : { path: locale, caseSensitive: true as const }),
      locale,
      children: pageRoutes.map((page) => ({
        id: pageRouteId(locale, page),
        ...(page.path === '' ? { index: true as const } : { path: page.path, caseSensitive: true as const }),
        locale,
        page,
      })),
    })),
  },
];
