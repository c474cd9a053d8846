import type { RouteObject } from 'react-router';
import { isChunkLoadError, isCssPreloadError, shouldReloadForChunkError } from '../lib/chunk-reload-guard.ts';

// A page whose code fails to load during a client navigation is loaded as a document, once per
// path per 10 s (decision 0005). Never while the app starts: with storage blocked it could loop.

/** Errors Vite reported through `vite:preloadError` that were JavaScript failures. */
export type SeenChunkErrors = WeakSet<object>;

/**
 * A CSS-only failure is swallowed, so the page module still loads without its styles; a
 * JavaScript failure is remembered and left to reject the import, which the guarded `lazy` sees.
 */
export function handlePreloadError(event: Event, seen: SeenChunkErrors): void {
  const error = (event as Event & { payload?: unknown }).payload;
  if (isCssPreloadError(error)) {
    event.preventDefault();
    return;
  }
  if (error !== null && typeof error === 'object') seen.add(error);
}

export function listenForPreloadErrors(target: EventTarget, seen: SeenChunkErrors): () => void {
  const listener = (event: Event) => handlePreloadError(event, seen);
  target.addEventListener('vite:preloadError', listener);
  return () => target.removeEventListener('vite:preloadError', listener);
}

export interface LazyGuardOptions {
  /** The full path (path, query, hash) of the client navigation under way, or null outside one. */
  navigationTarget: () => string | null;
  seen: SeenChunkErrors;
  reload: (path: string) => void;
  /** True while the page is already being left for a full load: errors then are noise. */
  leaving?: () => boolean;
  shouldReload?: (path: string) => boolean;
}

function isChunkFailure(error: unknown, seen: SeenChunkErrors): boolean {
  return (error !== null && typeof error === 'object' && seen.has(error)) || isChunkLoadError(error);
}

/** A promise that never settles: the navigation waits while the page unloads. */
const never = <T>() => new Promise<T>(() => undefined);

/**
 * Wraps every route's `lazy` and `loader` (recursively, in place; the browser's loaders load their
 * code on demand) so a chunk failure during a navigation reloads the target once. Call before
 * creating the router, which copies the route objects.
 */
export function guardLazyRoutes(routes: RouteObject[], options: LazyGuardOptions): void {
  const shouldReload = options.shouldReload ?? ((path: string) => shouldReloadForChunkError(path));
  const guard =
    <A extends unknown[], T>(original: (...args: A) => Promise<T> | T) =>
    async (...args: A): Promise<T> => {
      try {
        return await original(...args);
      } catch (error) {
        if (options.leaving?.()) return never();
        const path = options.navigationTarget();
        if (path !== null && isChunkFailure(error, options.seen) && shouldReload(path)) {
          options.reload(path);
          return never();
        }
        throw error;
      }
    };
  for (const route of routes) {
    if (typeof route.lazy === 'function') route.lazy = guard(route.lazy);
    if (typeof route.loader === 'function') route.loader = guard(route.loader);
    if (route.children) guardLazyRoutes(route.children, options);
  }
}
