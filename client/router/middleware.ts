import { redirect } from 'react-router';
import type { MiddlewareName } from '../../contract/routes.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';

export interface MiddlewareContext {
  user: PublicUser | null;
  locale: Locale;
  /** The full path of the page being opened, with its locale prefix, query and hash. */
  target: string;
  /** The `redirect` query parameter, if any (already checked to be a path of this site). */
  redirectTo: string | null;
}

/** A named route middleware: return nothing to continue, or throw `redirect(...)`. */
export type RouteMiddleware = (context: MiddlewareContext) => void;

export const routeMiddleware: Record<MiddlewareName, RouteMiddleware> = {
  /** Pages for logged-in users: others go to login and come back afterwards. */
  auth({ user, locale, target }) {
    if (!user) throw redirect(loginThenBackTo(locale, target));
  },
  /** Login and registration: a logged-in user is sent on to where they were going. */
  guest({ user, locale, redirectTo }) {
    if (user) throw redirect(redirectTo ?? localePath(locale, '/'));
  },
};

export function runRouteMiddleware(names: readonly string[], context: MiddlewareContext): void {
  for (const name of names) {
    const middleware = Object.hasOwn(routeMiddleware, name) ? routeMiddleware[name as MiddlewareName] : undefined;
    if (!middleware) throw new Error(`Unknown route middleware: '${name}'.`);
    middleware(context);
  }
}
