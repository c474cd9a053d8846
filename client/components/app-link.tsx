import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router';
import { usePrefetchOnView } from '../router/use-prefetch.ts';

/**
 * The site's in-site links: react-router's Link and NavLink, plus prefetch of the page they open
 * when they come into view or on intent (client/router/use-prefetch.ts). react-router's own
 * `prefetch` prop is framework mode's and throws in a data router, so it is not offered.
 */
export function AppLink(props: Omit<LinkProps, 'prefetch'>) {
  return <Link {...props} {...usePrefetchOnView(props)} />;
}

/** AppLink for menus: NavLink's active class and `aria-current`. */
export function AppNavLink(props: Omit<NavLinkProps, 'prefetch'>) {
  return <NavLink {...props} {...usePrefetchOnView(props)} />;
}
