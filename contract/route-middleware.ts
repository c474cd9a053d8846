import { localePath, type Locale } from './locales.ts';
import { loginThenBackTo } from './login-path.ts';
import { safeRedirectPath } from './navigation-guard.ts';
import type { PublicUser } from './page-data.ts';
import type { MiddlewareName } from './routes.ts';

export interface MiddlewareContext {
  user: PublicUser | null;
  locale: Locale;
  /** The full path of the page being opened, with its locale prefix, query and hash. */
  target: string;
  /** The `redirect` query parameter, if any (already checked to be a path of this site). */
  redirectTo: string | null;
}

/** A named route middleware: nothing to continue, or the address to go to instead. */
export type RouteMiddleware = (context: MiddlewareContext) => string | undefined;

export const routeMiddleware: Record<MiddlewareName, RouteMiddleware> = {
  /** Pages for logged-in users: others go to login and come back afterwards. */
  auth: ({ user, locale, target }) => (user ? undefined : loginThenBackTo(locale, target)),
  /** Login and registration: a logged-in user is sent on to where they were going. */
  guest: ({ user, locale, redirectTo }) => (user ? (redirectTo ?? localePath(locale, '/')) : undefined),
};

/** The first redirect the named middleware ask for, if any; an unknown name is a programming error. */
export function runRouteMiddleware(names: readonly string[], context: MiddlewareContext): string | undefined {
  for (const name of names) {
    const middleware = Object.hasOwn(routeMiddleware, name) ? routeMiddleware[name as MiddlewareName] : undefined;
    if (!middleware) throw new Error(`Unknown route middleware: '${name}'.`);
    const redirect = middleware(context);
    if (redirect !== undefined) return redirect;
  }
  return undefined;
}

/** The `redirect` query parameter when it is a path of this site. */
export function redirectParam(url: URL): string | null {
  const value = url.searchParams.get('redirect');
  return value === null ? null : safeRedirectPath(value, '') || null;
}

/** Where a page's middleware send this visitor instead of `url` (react-router's in the browser). */
export function middlewareRedirect(
  names: readonly string[] | undefined,
  context: { user: PublicUser | null; locale: Locale; url: URL },
): string | undefined {
  if (!names?.length) return undefined;
  const { user, locale, url } = context;
  return runRouteMiddleware(names, { user, locale, target: url.pathname + url.search, redirectTo: redirectParam(url) });
}
