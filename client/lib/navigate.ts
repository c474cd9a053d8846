import { resolveNavigation, type NavigationTarget } from '../../contract/navigation-guard.ts';

/**
 * `navigateTo(to, options)`: the one way the app moves somewhere in code (Play, Clear errors,
 * redirects after login ...). Links (components/app-link.tsx) navigate in the router, redirects in route middleware
 * use react-router's `redirect()`; both stay on the site by construction.
 *
 * - Internal targets (paths, `?query`, `#hash`, same-origin URLs) navigate in the data router,
 *   or by a full load when no router is running (start-up failed, error screen before hydration).
 * - External targets are refused unless `external: true` is passed AND the origin is on the
 *   configured allow-list (`ALLOWED_EXTERNAL_ORIGINS`, sent as `window.__ASDAS__`).
 * - `javascript:`, `data:`, `blob:` and `vbscript:` are always refused.
 * Refusals throw a `NavigationRefusedError` (synchronously) whose `reason` and message name why.
 */

export interface NavigateToOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
  /** Allow leaving the site (still only to an allowed origin). */
  external?: boolean;
}

/** The part of react-router's data router navigateTo needs. */
export interface RouterNavigator {
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

/** What navigateTo needs from the browser; injectable for tests. */
export interface NavigationEnvironment {
  location: Pick<Location, 'origin' | 'pathname' | 'search' | 'hash' | 'assign' | 'replace' | 'reload'>;
  allowedOrigins: () => readonly string[];
  router: () => RouterNavigator | null;
}

let activeRouter: RouterNavigator | null = null;
let leavingPage = false;

/** True once a full document load was started from here: the page is going away. */
export function isLeavingPage(): boolean {
  return leavingPage;
}

/** Called once the browser router exists (client/entry-client.tsx); returns an unregister function. */
export function setNavigationRouter(router: RouterNavigator | null): () => void {
  activeRouter = router;
  return () => {
    if (activeRouter === router) activeRouter = null;
  };
}

function browserEnvironment(): NavigationEnvironment {
  if (typeof window === 'undefined') {
    throw new Error('navigateTo runs in the browser; on the server, throw redirect() from route middleware.');
  }
  return {
    location: window.location,
    // `window.__ASDAS__` is the server's snapshot (client/runtime.tsx RuntimeSnapshot).
    allowedOrigins: () =>
      (window as { __ASDAS__?: { allowedExternalOrigins?: string[] } }).__ASDAS__?.allowedExternalOrigins ?? [],
    router: () => activeRouter,
  };
}

/**
 * A full document load of an internal path: `reload()` when it is the page already shown
 * (after a back/forward the address bar already shows the target), else `assign()` (or
 * `replace()`).
 */
export function hardNavigate(
  path: string,
  env: Pick<NavigationEnvironment, 'location'> = browserEnvironment(),
  replace = false,
): void {
  const { location } = env;
  leavingPage = true;
  const current = location.pathname + location.search;
  if (current + location.hash === path) return location.reload();
  if (replace) location.replace(path);
  else location.assign(path);
  // Only the hash differs: assign() scrolled within the page; load the document for real.
  if (path.startsWith(`${current}#`)) location.reload();
}

/** Where `to` would go from the current page; throws `NavigationRefusedError` when it may not. */
function resolveTarget(to: string, options: NavigateToOptions, env: NavigationEnvironment): NavigationTarget {
  return resolveNavigation(to, {
    external: options.external === true,
    allowedOrigins: env.allowedOrigins(),
    currentOrigin: env.location.origin,
    currentPath: env.location.pathname + env.location.search,
  });
}

export function createNavigateTo(env: () => NavigationEnvironment) {
  return function navigateTo(to: string, options: NavigateToOptions = {}): Promise<void> {
    const environment = env();
    const target = resolveTarget(to, options, environment);
    if (target.kind === 'external') {
      if (options.replace) environment.location.replace(target.url);
      else environment.location.assign(target.url);
      return Promise.resolve();
    }
    const router = environment.router();
    if (router) return router.navigate(target.path, { replace: options.replace === true });
    hardNavigate(target.path, environment, options.replace === true);
    return Promise.resolve();
  };
}

export const navigateTo = createNavigateTo(browserEnvironment);
