import { resolveNavigation, type NavigationTarget } from '../../contract/navigation-guard.ts';
import { appRouter } from './app-router.ts';
import { hardNavigate } from './navigation-state.ts';

export { hardNavigate, isLeavingPage } from './navigation-state.ts';

/**
 * `navigateTo`: the one way code moves the visitor (docs/client-runtime.md). Without a router (the
 * start failed) an internal target is a full load. A refusal throws `NavigationRefusedError`
 * synchronously. Loaded on demand with the URL guard; the router (app-router.ts) and the full load
 * it uses are in the first load.
 */

export interface RouterNavigator {
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
}

export interface NavigateToOptions {
  replace?: boolean;
  /** Allow leaving the site (still only to an allowed origin). */
  external?: boolean;
}

export interface NavigationEnvironment {
  location: Pick<Location, 'origin' | 'pathname' | 'search' | 'hash' | 'assign' | 'replace' | 'reload'>;
  allowedOrigins: () => readonly string[];
  router: () => RouterNavigator | null;
}

function browserEnvironment(): NavigationEnvironment {
  if (typeof window === 'undefined') {
    throw new Error('navigateTo runs in the browser; on the server, throw redirect() from route middleware.');
  }
  return {
    location: window.location,
    allowedOrigins: () =>
      (window as { __ASDAS__?: { allowedExternalOrigins?: string[] } }).__ASDAS__?.allowedExternalOrigins ?? [],
    router: appRouter,
  };
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
