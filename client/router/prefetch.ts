import { matchRoutes, type Params, type RouteObject } from 'react-router';
import { splitLocale, type Locale } from '../../contract/locales.ts';
import type { PageHandle } from '../../contract/route-tree.ts';
import { accountStringsLoaded } from '../i18n.ts';
import pLimit from 'p-limit';
import type { PageRoute } from '../../contract/routes.ts';
import { appRouter } from '../lib/app-router.ts';
import { prefetchPayload } from './payload.ts';

/** Prefetches (payloads and route chunks together) at once; the others wait for a slot. */
export const PRELOAD_CONCURRENCY = 5;
const limit = pLimit(PRELOAD_CONCURRENCY);
const run = <T>(task: () => Promise<T>) => limit(task);

/** By page id, and by language too for a page that brings its language's account strings. */
const preloadedChunks = new Set<string>();
const seenInView = new Set<string>();

interface PageAt {
  route: PageRoute;
  params: Params;
  /** The page's route object, whose `lazy` loads its chunk and strings. */
  object: RouteObject;
}

/** The page a path opens, as the router's own routes match it (the browser's one matcher). */
export function pageAt(pathname: string, routes: RouteObject[] = appRouter()?.routes ?? []): PageAt | undefined {
  const leaf = matchRoutes(routes, pathname)?.at(-1);
  const page = (leaf?.route.handle as PageHandle | undefined)?.page;
  return leaf && page ? { route: page, params: leaf.params, object: leaf.route } : undefined;
}

interface NetworkInformationLike {
  saveData?: boolean;
  effectiveType?: string;
}

/** No prefetch for visitors who asked to save data or sit on a 2G connection. */
function prefetchAllowed(): boolean {
  if (typeof navigator === 'undefined') return false;
  const connection = (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
  return !(connection?.saveData || /2g/.test(connection?.effectiveType ?? ''));
}

/**
 * Whether a link's page is prefetched when the link comes into view, not only on intent. An account
 * page (login, registration, the forms, account, Play: `strings: 'account'`) brings its language's
 * account strings and the form code (about 9 KB in 4 files for the header's Log in and Register),
 * which a reader may never use: fetched on hover, focus or touch only, unless a page that has them
 * is shown already (then a link needs only its own small chunk).
 */
function prefetchInView(route: PageRoute, locale: Locale): boolean {
  return route.strings !== 'account' || accountStringsLoaded(locale);
}

/** The page's code as its route loads it (`lazy`: the chunk and its account strings). */
function loadPageChunk(object: RouteObject): Promise<unknown> {
  return typeof object.lazy === 'function' ? object.lazy() : Promise.resolve();
}

/** The route chunk and the payload; 'view' once per path, 'intent' again once SWR's answer is stale. */
export function prefetchPage(pathname: string, reason: 'view' | 'intent'): void {
  if (!prefetchAllowed()) return;
  const match = pageAt(pathname);
  if (!match) return;
  const { route, params, object } = match;
  const { locale } = splitLocale(pathname);
  if (reason === 'view') {
    if (seenInView.has(pathname) || !prefetchInView(route, locale)) return;
    seenInView.add(pathname);
  }
  if (route.validate && !route.validate(params)) return;
  const chunkKey = route.strings ? `${locale}:${route.id}` : route.id;
  if (!preloadedChunks.has(chunkKey)) {
    preloadedChunks.add(chunkKey);
    run(() => loadPageChunk(object)).catch(() => {
      // A failed chunk is loaded (and its failure handled) by the navigation itself.
      preloadedChunks.delete(chunkKey);
    });
  }
  if (route.data) void prefetchPayload(pathname, run);
}

type Callback = () => void;

let observer: IntersectionObserver | undefined;
const onVisible = new WeakMap<Element, Callback>();

function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting && entry.intersectionRatio <= 0) continue;
      const callback = onVisible.get(entry.target);
      observer!.unobserve(entry.target);
      onVisible.delete(entry.target);
      callback?.();
    }
  });
  return observer;
}

const idle: (callback: Callback) => () => void =
  typeof window !== 'undefined' && 'requestIdleCallback' in window
    ? (callback) => {
        const handle = window.requestIdleCallback(callback, { timeout: 2000 });
        return () => window.cancelIdleCallback(handle);
      }
    : (callback) => {
        const handle = setTimeout(callback, 1);
        return () => clearTimeout(handle);
      };

/** One IntersectionObserver for every link, armed when the browser is idle. Returns the clean-up. */
export function prefetchWhenVisible(element: Element, pathname: string): () => void {
  const match = pageAt(pathname);
  if (
    typeof IntersectionObserver === 'undefined' ||
    !prefetchAllowed() ||
    seenInView.has(pathname) ||
    !match ||
    !prefetchInView(match.route, splitLocale(pathname).locale)
  )
    return () => undefined;
  let observing = false;
  const cancelIdle = idle(() => {
    observing = true;
    onVisible.set(element, () => prefetchPage(pathname, 'view'));
    sharedObserver().observe(element);
  });
  return () => {
    cancelIdle();
    if (!observing) return;
    onVisible.delete(element);
    observer?.unobserve(element);
  };
}
