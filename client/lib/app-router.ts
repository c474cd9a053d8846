import { createBrowserRouter, type RouteObject } from 'react-router';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

let router: AppRouter | null = null;

/**
 * The browser's one data router, made here at start (client/entry-client.tsx) once the first
 * page's code is in place; `navigateTo` and link prefetch import it from here.
 */
export function createAppRouter(routes: RouteObject[]): AppRouter {
  return (router = createBrowserRouter(routes));
}

/** Null before the start made it (or when the start failed). */
export function appRouter(): AppRouter | null {
  return router;
}
