import { resolveNavigation, type NavigationTarget } from '../../contract/navigation-guard.ts';

/**
 * `navigateTo`: the one way code moves the visitor (docs/client-runtime.md). Without a router (the
 * start failed) an internal target is a full load. A refusal throws `NavigationRefusedError`
 * synchronously.
 */

export interface NavigateToOptions {
  replace?: boolean;
  /** Allow leaving the site (still only to an allowed origin). */
  external?: boolean;
}

export interface RouterNavigator {
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

export interface NavigationEnvironment {
  location: Pick<Location, 'origin' | 'pathname' | 'search' | 'hash' | 'assign' | 'replace' | 'reload'>;
  allowedOrigins: () => readonly string[];
  router: () => RouterNavigator | null;
}

let activeRouter: RouterNavigator | null = null;
let leavingPage = false;

/** True once a full document load was started from here. */
export function isLeavingPage(): boolean {
  return leavingPage;
}

/** Returns an unregister function. */
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
    allowedOrigins: () =>
      (window as { __ASDAS__?: { allowedExternalOrigins?: string[] } }).__ASDAS__?.allowedExternalOrigins ?? [],
    router: () => activeRouter,
  };
}

/** A full document load; `reload()` when after a back/forward the address bar shows it already. */
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
