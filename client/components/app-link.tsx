import {
  createElement,
  useContext,
  useEffect,
  useRef,
  type CSSProperties,
  type FocusEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
  type TouchEvent,
} from 'react';
import {
  UNSAFE_DataRouterStateContext,
  UNSAFE_NavigationContext,
  useHref,
  useLinkClickHandler,
  useLocation,
  useResolvedPath,
  useViewTransitionState,
  type LinkProps as RouterLinkProps,
  type NavLinkProps as RouterNavLinkProps,
  type To,
} from 'react-router';
import { onServer } from '../hooks.ts';
import { navigateTo } from '../lib/navigate.ts';
import { prefetchPage, prefetchWhenVisible } from '../router/prefetch.ts';
import { useRuntime } from '../runtime.tsx';

const absoluteUrl = /^(?:[a-z][a-z\d+\-.]*:|\/\/)/i;

/**
 * Without framework-mode `prefetch` (a data router's Link throws with it) and the unstable `mask`, the
 * links below need no react-router Link or NavLink, whose prefetch code every page would load (decision 0019).
 */
export type LinkProps = Omit<RouterLinkProps, 'prefetch' | 'mask'> & { prefetch?: 'none' };
export type NavLinkProps = Omit<RouterNavLinkProps, 'prefetch' | 'mask'> & { prefetch?: 'none' };

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

/** Prefetch when the link comes into view or on intent; not for crawlers, other sites or new tabs. */
function usePrefetch<E extends Element>(
  { to, target, reloadDocument }: PrefetchOptions,
  resolved: string,
  current: string,
) {
  const ref = useRef<E>(null);
  const { isBot } = useRuntime();
  const isAbsolute = typeof to === 'string' && absoluteUrl.test(to);
  const isHashOnly = typeof to === 'string' && to.startsWith('#');
  const enabled = !isBot && !isHashOnly && !reloadDocument && (!target || target === '_self');
  const key = isAbsolute ? to : resolved;

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !element) return;
    const path = prefetchTarget(to, resolved, current);
    if (path === null) return;
    return prefetchWhenVisible(element, path);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `to` and `resolved`
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
 * A plain path on this site (`/th/asdas?page=2#x`) is its own href, and its active state a string
 * comparison: drawn here without react-router's resolution, with the same markup (decision 0021).
 */
const plainPath = /^\/(?!\/)[\w\-.~!$&'()*+,;=:@%/]*(?:\?[^#\s]*)?(?:#\S*)?$/;
const dotSegment = /(?:^|\/)\.{1,2}(?:\/|$)/;

function pathOf(to: string): string {
  const end = to.search(/[?#]/);
  return end === -1 ? to : to.slice(0, end);
}

type RouterOptions = Pick<
  LinkProps,
  | 'reloadDocument'
  | 'relative'
  | 'state'
  | 'replace'
  | 'preventScrollReset'
  | 'viewTransition'
  | 'defaultShouldRevalidate'
  | 'prefetch'
>;

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
    props.defaultShouldRevalidate === undefined &&
    (props.prefetch === undefined || props.prefetch === 'none')
  );
}

/** react-router's rule for a click it handles: a plain left click, no modifier, this tab. */
function isRouterClick(event: MouseEvent<HTMLAnchorElement>, target: string | undefined): boolean {
  return (
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
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
  return (
    <PlainAnchor
      {...props}
      {...intentHandlers(onIntent, props)}
      to={to}
      anchorRef={ref}
      current={pathname + search + hash}
    />
  );
}

// react-router's own (Link): an absolute URL on this site navigates in the router, another site's is a plain link.
const routerAbsoluteUrl = /^(?:[a-z][a-z0-9+.-]*:|[\\/]{2})/i;
const protocolRelativeUrl = /^[\\/]{2}/;

/** react-router's stripBasename: the path under the router's basename, or null outside it. */
function stripBasename(pathname: string, basename: string): string | null {
  if (basename === '/') return pathname;
  if (!pathname.toLowerCase().startsWith(basename.toLowerCase())) return null;
  const start = basename.endsWith('/') ? basename.length - 1 : basename.length;
  const next = pathname.charAt(start);
  if (next && next !== '/') return null;
  return pathname.slice(start) || '/';
}

/** react-router's parseToInfo: where an absolute URL goes (this site's router, or elsewhere). */
function parseTo(to: To, basename: string): { to: To; absoluteURL: string | undefined; isExternal: boolean } {
  if (typeof to !== 'string' || !routerAbsoluteUrl.test(to)) return { to, absoluteURL: undefined, isExternal: false };
  let path = to;
  let isExternal = false;
  if (!onServer) {
    try {
      const current = new URL(window.location.href);
      const target = protocolRelativeUrl.test(to) ? new URL(current.protocol + to.replace(/\\/g, '/')) : new URL(to);
      const inSite = stripBasename(target.pathname, basename);
      if (target.origin === current.origin && inSite != null) path = inSite + target.search + target.hash;
      else isExternal = true;
    } catch {
      // An invalid URL: react-router leaves it as it is (and warns in development).
    }
  }
  return { to: path, absoluteURL: to, isExternal };
}

/** react-router's Link (7.x) as a data router draws it, from its own hooks, without framework prefetch. */
function RouterAnchor({
  onClick,
  discover = 'render',
  prefetch: _prefetch,
  relative,
  reloadDocument,
  replace,
  state,
  target,
  to: toProp,
  preventScrollReset,
  viewTransition,
  defaultShouldRevalidate,
  ref,
  ...rest
}: LinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const { basename, useTransitions } = useContext(UNSAFE_NavigationContext);
  const isAbsolute = typeof toProp === 'string' && routerAbsoluteUrl.test(toProp);
  const parsed = parseTo(toProp, basename);
  const href = useHref(parsed.to, { relative });
  const internalOnClick = useLinkClickHandler(parsed.to, {
    replace,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- react-router types a link's state as any
    state,
    target,
    preventScrollReset,
    relative,
    viewTransition,
    defaultShouldRevalidate,
    useTransitions,
  });
  const isSpaLink = !(parsed.isExternal || reloadDocument);
  return (
    <a
      {...rest}
      href={parsed.absoluteURL || href}
      onClick={
        isSpaLink
          ? (event: MouseEvent<HTMLAnchorElement>) => {
              onClick?.(event);
              if (!event.defaultPrevented) internalOnClick(event);
            }
          : onClick
      }
      ref={ref}
      target={target}
      data-discover={!isAbsolute && discover === 'render' ? 'true' : undefined}
    />
  );
}

function RouterLink(props: LinkProps) {
  const { pathname } = useLocation();
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(
    props,
    useResolvedPathname(props.to, props.relative),
    pathname,
  );
  return <RouterAnchor {...props} ref={ref} {...intentHandlers(onIntent, props)} />;
}

/** A link without prefetch (the language switch): Link's `<a>`, drawn as AppLink draws it. */
export function LinkWithoutPrefetch(props: LinkProps) {
  if (!isPlain(props.to, props)) return <RouterAnchor {...props} />;
  if (onServer) return serverAnchor(props, props.to);
  return <CurrentPlainAnchor {...props} to={props.to} />;
}

function CurrentPlainAnchor({ prefetch: _prefetch, ...props }: LinkProps & { to: string }) {
  const { pathname, search, hash } = useLocation();
  return <PlainAnchor {...props} anchorRef={null} current={pathname + search + hash} />;
}

/** What a link takes that is not an attribute of its `<a>`: router options and NavLink's rules. */
const linkOptions = new Set([
  'to',
  'target',
  'prefetch',
  'discover',
  'reloadDocument',
  'relative',
  'state',
  'replace',
  'preventScrollReset',
  'viewTransition',
  'defaultShouldRevalidate',
  'end',
  'caseSensitive',
]);

/**
 * PlainAnchor's `<a>` as the server renders it; `nav` is NavLink's active state. No object rest or
 * spread: the links' prop copies were a fifth of a render (decision 0021).
 */
function serverAnchor(
  props: LinkProps | PlainNavLinkProps,
  to: string,
  nav?: { 'aria-current': NavLinkProps['aria-current']; className: string },
) {
  const attributes: Record<string, unknown> = {};
  for (const name in props) {
    if (!linkOptions.has(name) && !(nav && (name === 'aria-current' || name === 'className')))
      attributes[name] = props[name as keyof typeof props];
  }
  if (nav) {
    attributes['aria-current'] = nav['aria-current'];
    attributes.className = nav.className;
  }
  // href, target and data-discover last, in PlainAnchor's order: the same markup byte for byte.
  attributes.href = to;
  attributes.target = props.target;
  attributes['data-discover'] = (props.discover ?? 'render') === 'render' ? 'true' : undefined;
  return createElement('a', attributes);
}

/** Every in-site link goes through here, so navigation behaviour (prefetch) lives in one place. */
export function AppLink(props: LinkProps) {
  if (!isPlain(props.to, props)) return <RouterLink {...props} />;
  return onServer ? serverAnchor(props, props.to) : <PlainLink {...props} to={props.to} />;
}

/** NavLink's props with plain values: the render-function forms of className, style and children need the router. */
type PlainNavLinkProps = Omit<NavLinkProps, 'className' | 'style' | 'children'> & {
  to: string;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
};

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
  const state = navLinkState(
    resolved,
    { end, caseSensitive },
    location.pathname,
    routerState?.navigation.location?.pathname,
  );
  const { isActive } = state;
  const classes = navClassName(className, state);
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
function serverNavAnchor(props: PlainNavLinkProps, currentPathname: string) {
  const state = navLinkState(
    pathOf(props.to),
    { end: props.end ?? false, caseSensitive: props.caseSensitive ?? false },
    currentPathname,
    undefined,
  );
  const ariaCurrent = state.isActive ? (props['aria-current'] ?? 'page') : undefined;
  return serverAnchor(props, props.to, {
    'aria-current': ariaCurrent,
    className: navClassName(props.className ?? '', state),
  });
}

/** NavLink's active and pending rules (react-router 7) for a link to `resolved`. */
function navLinkState(
  resolved: string,
  { end, caseSensitive }: { end: boolean; caseSensitive: boolean },
  currentPathname: string,
  nextPathname: string | null | undefined,
) {
  const fold = (value: string) => (caseSensitive ? value : value.toLowerCase());
  const toPathname = fold(resolved);
  const current = fold(currentPathname);
  const next = nextPathname ? fold(nextPathname) : null;
  const endSlash = toPathname !== '/' && toPathname.endsWith('/') ? toPathname.length - 1 : toPathname.length;
  const isActive =
    current === toPathname || (!end && current.startsWith(toPathname) && current.charAt(endSlash) === '/');
  const isPending =
    next !== null &&
    (next === toPathname || (!end && next.startsWith(toPathname) && next.charAt(toPathname.length) === '/'));
  return { isActive, isPending };
}

/** NavLink's classes: the link's own, then active, pending and transitioning. */
function navClassName(
  className: string,
  { isActive, isPending, isTransitioning }: { isActive: boolean; isPending: boolean; isTransitioning?: boolean },
) {
  return [className, isActive ? 'active' : null, isPending ? 'pending' : null, isTransitioning ? 'transitioning' : null]
    .filter(Boolean)
    .join(' ');
}

/** react-router's NavLink (7.x): its active, pending and transitioning state over RouterAnchor. */
function RouterNavAnchor({
  'aria-current': ariaCurrentProp = 'page',
  caseSensitive = false,
  className: classNameProp = '',
  end = false,
  style: styleProp,
  to,
  viewTransition,
  children,
  ...rest
}: NavLinkProps & { ref?: Ref<HTMLAnchorElement> }) {
  const path = useResolvedPath(to, { relative: rest.relative });
  const location = useLocation();
  const routerState = useContext(UNSAFE_DataRouterStateContext);
  const { navigator, basename } = useContext(UNSAFE_NavigationContext);
  // A data router's state is there or not for the app's whole life: the hook's call is stable.
  // eslint-disable-next-line react-hooks/rules-of-hooks
  const isTransitioning = routerState != null && useViewTransitionState(path) && viewTransition === true;
  const next = routerState?.navigation.location?.pathname;
  const { isActive, isPending } = navLinkState(
    navigator.encodeLocation ? navigator.encodeLocation(path).pathname : path.pathname,
    { end, caseSensitive },
    location.pathname,
    next && basename ? (stripBasename(next, basename) ?? next) : next,
  );
  const renderProps = { isActive, isPending, isTransitioning };
  const className =
    typeof classNameProp === 'function' ? classNameProp(renderProps) : navClassName(classNameProp, renderProps);
  const style = typeof styleProp === 'function' ? styleProp(renderProps) : styleProp;
  return (
    <RouterAnchor
      {...rest}
      aria-current={isActive ? ariaCurrentProp : undefined}
      className={className}
      style={style}
      to={to}
      viewTransition={viewTransition}
    >
      {typeof children === 'function' ? children(renderProps) : children}
    </RouterAnchor>
  );
}

function RouterNavLink(props: NavLinkProps) {
  const { pathname } = useLocation();
  const { ref, onIntent } = usePrefetch<HTMLAnchorElement>(
    props,
    useResolvedPathname(props.to, props.relative),
    pathname,
  );
  return <RouterNavAnchor {...props} ref={ref} {...intentHandlers(onIntent, props)} />;
}

/** AppLink for navigation menus: react-router's NavLink (active class, aria-current) with prefetch. */
export function AppNavLink(props: NavLinkProps) {
  // Read on every render (a hook), used by the server's drawing of a plain link.
  const { pathname } = useLocation();
  const { to, className, style, children } = props;
  if (
    isPlain(to, props) &&
    typeof className !== 'function' &&
    typeof style !== 'function' &&
    typeof children !== 'function'
  ) {
    const plain = props as PlainNavLinkProps;
    return onServer ? serverNavAnchor(plain, pathname) : <PlainNavLink {...plain} />;
  }
  return <RouterNavLink {...props} />;
}
