import { useEffect, useRef, type FocusEvent, type MouseEvent, type TouchEvent } from 'react';
import { Link, NavLink, useLocation, useResolvedPath, type LinkProps, type NavLinkProps, type To } from 'react-router';
import { prefetchPage, prefetchWhenVisible } from '../router/prefetch.ts';
import { useRuntime } from '../runtime.tsx';

const absoluteUrl = /^(?:[a-z][a-z\d+\-.]*:|\/\/)/i;

interface PrefetchOptions {
  to: To;
  target?: string | undefined;
  reloadDocument?: boolean | undefined;
  relative?: 'route' | 'path' | undefined;
}

/** The path a link opens on this site, or null for a link prefetch must leave alone. */
function prefetchTarget(to: To, resolvedPathname: string, currentPathname: string): string | null {
  let pathname = resolvedPathname;
  if (typeof to === 'string' && absoluteUrl.test(to)) {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) return null;
    pathname = url.pathname;
  }
  return pathname === currentPathname ? null : pathname;
}

/**
 * Prefetch behaviour shared by AppLink and AppNavLink: when the link comes into view, or on
 * hover, focus or touch, the target page's payload and route chunk are fetched (client/router/
 * prefetch.ts). Skipped for crawlers, external links, links to the current page and new tabs.
 */
function usePrefetch<E extends Element>({ to, target, reloadDocument, relative }: PrefetchOptions) {
  const ref = useRef<E>(null);
  const { isBot } = useRuntime();
  const { pathname: current } = useLocation();
  const isAbsolute = typeof to === 'string' && absoluteUrl.test(to);
  const isHashOnly = typeof to === 'string' && to.startsWith('#');
  const resolved = useResolvedPath(isAbsolute ? '.' : to, relative ? { relative } : undefined).pathname;
  const enabled = !isBot && !isHashOnly && !reloadDocument && (!target || target === '_self');
  const key = isAbsolute ? (to as string) : resolved;

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const path = prefetchTarget(to, resolved, current);
    if (path === null) return;
    return prefetchWhenVisible(element, path);
    // `key` stands for `to` and `resolved`.
  }, [enabled, key, current]);

  const onIntent = () => {
    if (!enabled) return;
    const path = prefetchTarget(to, resolved, current);
    if (path !== null) prefetchPage(path, 'intent');
  };
  return { ref, onIntent };
}

function chain<Ev>(own: () => void, theirs: ((event: Ev) => void) | undefined) {
  return (event: Ev) => {
    theirs?.(event);
    own();
  };
}

/** Every in-site link goes through here, so navigation behaviour (prefetch) lives in one place. */
export function AppLink({ onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(props);
  return (
    <Link
      {...props}
      ref={ref}
      onMouseEnter={chain<MouseEvent<HTMLAnchorElement>>(onIntent, onMouseEnter)}
      onFocus={chain<FocusEvent<HTMLAnchorElement>>(onIntent, onFocus)}
      onTouchStart={chain<TouchEvent<HTMLAnchorElement>>(onIntent, onTouchStart)}
    />
  );
}

/** AppLink for navigation menus: react-router's NavLink (active class, aria-current) with prefetch. */
export function AppNavLink({ onMouseEnter, onFocus, onTouchStart, ...props }: NavLinkProps) {
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(props);
  return (
    <NavLink
      {...props}
      ref={ref}
      onMouseEnter={chain<MouseEvent<HTMLAnchorElement>>(onIntent, onMouseEnter)}
      onFocus={chain<FocusEvent<HTMLAnchorElement>>(onIntent, onFocus)}
      onTouchStart={chain<TouchEvent<HTMLAnchorElement>>(onIntent, onTouchStart)}
    />
  );
}
