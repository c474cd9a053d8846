import { useEffect, useRef, type FocusEvent, type MouseEvent, type TouchEvent } from 'react';
import { createPath, useLocation, type To } from 'react-router';
import { botVisitor, detectBot } from '../lib/bot-visitor.ts';
import { loadNavigation, navigationLoaded } from './navigation-code.ts';

/**
 * Hover, focus or touch on a link to `pathname`. prefetch.ts is navigation code: at once when it has
 * loaded, else when it does; a chunk that fails to load leaves the link unprefetched.
 */
export function prefetchOnIntent(pathname: string): void {
  const navigation = navigationLoaded();
  if (navigation) navigation.prefetchPage(pathname, 'intent');
  else
    loadNavigation().then(
      ({ prefetchPage }) => prefetchPage(pathname, 'intent'),
      () => undefined,
    );
}

interface LinkLike {
  to: To;
  target?: string | undefined;
  reloadDocument?: boolean | undefined;
  onMouseEnter?: ((event: MouseEvent<HTMLAnchorElement>) => void) | undefined;
  onFocus?: ((event: FocusEvent<HTMLAnchorElement>) => void) | undefined;
  onTouchStart?: ((event: TouchEvent<HTMLAnchorElement>) => void) | undefined;
}

/**
 * The path on this site a link opens, read from the `<a>` react-router drew (so its resolution is
 * react-router's), or null for another site, the page shown now or a hash on it.
 */
function pathToPrefetch(anchor: HTMLAnchorElement, currentPathname: string): string | null {
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname === currentPathname) return null;
  return url.pathname;
}

const onServer = typeof document === 'undefined';

/**
 * Props for a link's `<a>` that prefetch its page (route chunk and payload) when it comes into view
 * and on hover, focus or touch; nothing for crawlers, new tabs and full document loads. The server
 * render draws no handlers: nothing (the side is fixed for a module's life).
 */
export const usePrefetchOnView: (link: LinkLike) => ReturnType<typeof useBrowserPrefetch> | undefined = onServer
  ? () => undefined
  : useBrowserPrefetch;

function useBrowserPrefetch(link: LinkLike) {
  const ref = useRef<HTMLAnchorElement>(null);
  const { pathname } = useLocation();
  const enabled = !link.reloadDocument && (!link.target || link.target === '_self');
  const toKey = typeof link.to === 'string' ? link.to : createPath(link.to);

  useEffect(() => {
    const anchor = ref.current;
    if (!enabled || !anchor) return;
    const path = pathToPrefetch(anchor, pathname);
    if (path === null) return;
    let stop: (() => void) | undefined;
    let live = true;
    // A chunk that fails to load leaves the link without prefetch; a navigation asks for it again.
    Promise.all([loadNavigation(), detectBot()]).then(
      ([{ prefetchWhenVisible }, isBot]) => {
        if (live && !isBot) stop = prefetchWhenVisible(anchor, path);
      },
      () => undefined,
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [enabled, toKey, pathname]);

  const onIntent = () => {
    const path = enabled && botVisitor() === false && ref.current ? pathToPrefetch(ref.current, pathname) : null;
    if (path !== null) prefetchOnIntent(path);
  };
  return {
    ref,
    onMouseEnter: (event: MouseEvent<HTMLAnchorElement>) => {
      link.onMouseEnter?.(event);
      onIntent();
    },
    onFocus: (event: FocusEvent<HTMLAnchorElement>) => {
      link.onFocus?.(event);
      onIntent();
    },
    onTouchStart: (event: TouchEvent<HTMLAnchorElement>) => {
      link.onTouchStart?.(event);
      onIntent();
    },
  };
}
