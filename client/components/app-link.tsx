import { useContext, useEffect, useRef, type CSSProperties, type FocusEvent, type MouseEvent, type ReactNode, type Ref, type TouchEvent } from 'react';
import {
  Link,
  NavLink,
  UNSAFE_DataRouterStateContext,
  useLocation,
  useResolvedPath,
  type LinkProps,
  type NavLinkProps,
  type To,
} from 'react-router';
import { onServer } from '../hooks.ts';
import { navigateTo } from '../lib/navigate.ts';
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
 * `resolved` is the pathname the link opens (react-router's resolution, or a plain path's own).
 */
function usePrefetch<E extends Element>({ to, target, reloadDocument }: PrefetchOptions, resolved: string, current: string) {
  const ref = useRef<E>(null);
  const { isBot } = useRuntime();
  const isAbsolute = typeof to === 'string' && absoluteUrl.test(to);
  const isHashOnly = typeof to === 'string' && to.startsWith('#');
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

/** react-router's resolution of `to`, for links that are not a plain path. */
function useResolvedPathname(to: To, relative: PrefetchOptions['relative']): string {
  const isAbsolute = typeof to === 'string' && absoluteUrl.test(to);
  return useResolvedPath(isAbsolute ? '.' : to, relative ? { relative } : undefined).pathname;
}

function chain<Ev>(own: () => void, theirs: ((event: Ev) => void) | undefined) {
  return (event: Ev) => {
    theirs?.(event);
    own();
  };
}

function intentHandlers(
  onIntent: () => void,
  { onMouseEnter, onFocus, onTouchStart }: Pick<LinkProps, 'onMouseEnter' | 'onFocus' | 'onTouchStart'>,
) {
  return {
    onMouseEnter: chain<MouseEvent<HTMLAnchorElement>>(onIntent, onMouseEnter),
    onFocus: chain<FocusEvent<HTMLAnchorElement>>(onIntent, onFocus),
    onTouchStart: chain<TouchEvent<HTMLAnchorElement>>(onIntent, onTouchStart),
  };
}

/**
 * A plain path on this site (`/th/asdas?page=2#x`) needs none of react-router's resolution: it is
 * its own href, and its active state is a string comparison. A CPU profile of the server showed
 * Link and NavLink resolving every link of every page (about a tenth of a page's render), so
 * such links are drawn here with the same markup and the same click behaviour; anything else
 * (relative paths, objects, other origins, `..`, router options) goes through react-router's own.
 */
const plainPath = /^\/(?!\/)[\w\-.~!$&'()*+,;=:@%/]*(?:\?[^#\s]*)?(?:#\S*)?$/;
const dotSegment = /(?:^|\/)\.{1,2}(?:\/|$)/;

function pathOf(to: string): string {
  const end = to.search(/[?#]/);
  return end === -1 ? to : to.slice(0, end);
}

type RouterOptions = Pick<LinkProps, 'reloadDocument' | 'relative' | 'state' | 'replace' | 'preventScrollReset' | 'viewTransition' | 'mask' | 'defaultShouldRevalidate' | 'prefetch'>;

function isPlain(to: To, props: RouterOptions): to is string {
  return (
    typeof to === 'string' &&
    plainPath.test(to) &&
    !dotSegment.test(pathOf(to)) &&
    !props.reloadDocument &&
    props.relative === undefined &&
    props.state === undefined &&
    props.replace === undefined &&
    props.preventScrollReset === undefined &&
    props.viewTransition === undefined &&
    props.mask === undefined &&
    props.defaultShouldRevalidate === undefined &&
    (props.prefetch === undefined || props.prefetch === 'none')
  );
}

/** react-router's rule for a click it handles: a plain left click, no modifier, this tab. */
function isRouterClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return event.button === 0 && (!target || target === '_self') && !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey);
}

type AnchorProps = Omit<LinkProps, 'to' | 'prefetch' | 'discover'> & { discover?: LinkProps['discover'] };

/** Link's `<a>` for a plain path; a click navigates in the router as Link's does. */
function PlainAnchor({
  to,
  anchorRef,
  current,
  onClick,
  target,
  discover = 'render',
  ...rest
}: AnchorProps & { to: string; anchorRef: Ref<HTMLAnchorElement>; current: string }) {
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || !isRouterClick(event, target)) return;
        event.preventDefault();
        // As react-router does: a link to the address already shown replaces its history entry.
        void navigateTo(to, { replace: current === to });
      }}
      ref={anchorRef}
      target={target}
      data-discover={discover === 'render' ? 'true' : undefined}
    />
  );
}

function PlainLink({ to, prefetch: _prefetch, ...props }: LinkProps & { to: string }) {
  const { pathname, search, hash } = useLocation();
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>({ ...props, to }, pathOf(to), pathname);
  return <PlainAnchor {...props} {...intentHandlers(onIntent, props)} to={to} anchorRef={ref} current={pathname + search + hash} />;
}

function RouterLink(props: LinkProps) {
  const { pathname } = useLocation();
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(props, useResolvedPathname(props.to, props.relative), pathname);
  return <Link {...props} ref={ref} {...intentHandlers(onIntent, props)} />;
}

/**
 * A plain link as the server renders it: the same `<a>` as PlainAnchor's, without what only a
 * browser uses (prefetch on view or intent, the click handler, the ref), which React would not
 * render anyway. A profile of uncached pages showed the link components' own work (props copied
 * four times, three handler closures each) at about a tenth of a render.
 */
function serverAnchor({ to, target, prefetch: _prefetch, discover = 'render', reloadDocument: _reloadDocument, ...rest }: LinkProps & { to: string }) {
  return <a {...rest} href={to} target={target} data-discover={discover === 'render' ? 'true' : undefined} />;
}

/** Every in-site link goes through here, so navigation behaviour (prefetch) lives in one place. */
export function AppLink(props: LinkProps) {
  if (!isPlain(props.to, props)) return <RouterLink {...props} />;
  return onServer ? serverAnchor({ ...props, to: props.to }) : <PlainLink {...props} to={props.to} />;
}

/** NavLink's props with plain values: the render-function forms of className, style and children need the router. */
type PlainNavLinkProps = Omit<NavLinkProps, 'className' | 'style' | 'children'> & { to: string; className?: string; style?: CSSProperties; children?: ReactNode };

/** NavLink for a plain path: react-router 7's active and pending rules (navLinkState), with prefetch. */
function PlainNavLink({
  to,
  end = false,
  caseSensitive = false,
  'aria-current': ariaCurrent = 'page',
  className = '',
  prefetch: _prefetch,
  ...props
}: PlainNavLinkProps) {
  const location = useLocation();
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const resolved = pathOf(to);
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>({ ...props, to }, resolved, location.pathname);
  const { isActive, className: classes } = navLinkState(resolved, { end, caseSensitive, className }, location.pathname, routerState?.navigation.location?.pathname);
  return (
    <PlainAnchor
      {...props}
      aria-current={isActive ? ariaCurrent : undefined}
      className={classes}
      {...intentHandlers(onIntent, props)}
      to={to}
      anchorRef={ref}
      current={location.pathname + location.search + location.hash}
    />
  );
}

/** PlainNavLink as the server renders it (see serverAnchor): nothing is pending on the server. */
function ServerNavLink({
  to,
  end = false,
  caseSensitive = false,
  'aria-current': ariaCurrent = 'page',
  className = '',
  ...props
}: PlainNavLinkProps) {
  const { isActive, className: classes } = navLinkState(pathOf(to), { end, caseSensitive, className }, useLocation().pathname, undefined);
  return serverAnchor({ ...props, 'aria-current': isActive ? ariaCurrent : undefined, className: classes, to });
}

/** NavLink's active and pending rules (react-router 7) for a link to `resolved`, and its classes. */
function navLinkState(
  resolved: string,
  { end, caseSensitive, className }: { end: boolean; caseSensitive: boolean; className: string },
  currentPathname: string,
  nextPathname: string | undefined,
) {
  const fold = (value: string) => (caseSensitive ? value : value.toLowerCase());
  const toPathname = fold(resolved);
  const current = fold(currentPathname);
  const next = nextPathname === undefined ? null : fold(nextPathname);
  const endSlash = toPathname !== '/' && toPathname.endsWith('/') ? toPathname.length - 1 : toPathname.length;
  const isActive = current === toPathname || (!end && current.startsWith(toPathname) && current.charAt(endSlash) === '/');
  const isPending = next !== null && (next === toPathname || (!end && next.startsWith(toPathname) && next.charAt(toPathname.length) === '/'));
  return { isActive, className: [className, isActive ? 'active' : null, isPending ? 'pending' : null].filter(Boolean).join(' ') };
}

function RouterNavLink(props: NavLinkProps) {
  const { pathname } = useLocation();
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(props, useResolvedPathname(props.to, props.relative), pathname);
  return <NavLink {...props} ref={ref} {...intentHandlers(onIntent, props)} />;
}

/** AppLink for navigation menus: react-router's NavLink (active class, aria-current) with prefetch. */
export function AppNavLink(props: NavLinkProps) {
  const { to, className, style, children } = props;
  if (isPlain(to, props) && typeof className !== 'function' && typeof style !== 'function' && typeof children !== 'function') {
    const Plain = onServer ? ServerNavLink : PlainNavLink;
    return <Plain {...props} to={to} className={className} style={style} children={children} />;
  }
  return <RouterNavLink {...props} />;
}
