import { isLoginAddress } from '../../contract/login-path.ts';
import { splitLocale } from '../../contract/locales.ts';
import { runRouteMiddleware } from '../../contract/route-middleware.ts';
import type { PageHandle } from '../../contract/route-tree.ts';
import { appRouter } from '../lib/app-router.ts';
import { setFlash } from '../lib/flash.ts';
import { currentUser, setCurrentUser } from '../lib/user-cache.ts';
import { payloadUrl } from './payload-url.ts';

// Signed out elsewhere (another tab, an ended session), found out from a payload or SWR's user:
// a page for signed-in visitors goes where the server sends nobody (docs/client-runtime.md).

/** Nobody is signed in: the header and route middleware learn it, and a login page says why. */
function signedOut(to: string): void {
  if (!isLoginAddress(to)) return;
  setFlash('signedOutElsewhere');
  if (currentUser()) void setCurrentUser(null);
}

/** A navigation's payload sends to `to`: while this tab believes someone signed in, that says nobody is. */
export function redirectedWhileSignedIn(to: string): void {
  if (currentUser()) signedOut(to);
}

/** Goes to `to` in place of the page shown, so Back does not return to what is no longer shown. */
function leave(to: string): void {
  const router = appRouter();
  if (!router || router.state.navigation.state !== 'idle') return;
  signedOut(to);
  void router.navigate(to, { replace: true });
}

/** The revalidated payload (`key`) of the page shown says it is elsewhere now: go there. */
export function followPageRedirect(key: string, to: string): void {
  const location = appRouter()?.state.location;
  if (location && payloadUrl(location.pathname) === key) leave(to);
}

/** Nobody is signed in any more: a page for signed-in visitors goes where its middleware sends nobody. */
export function leaveIfSignedOut(): void {
  const state = appRouter()?.state;
  const page = (state?.matches.at(-1)?.route.handle as PageHandle | undefined)?.page;
  if (!state || !page?.middleware) return;
  const { pathname, search } = state.location;
  const to = runRouteMiddleware(page.middleware, {
    user: null,
    locale: splitLocale(pathname).locale,
    target: pathname + search,
    redirectTo: null,
  });
  if (to !== undefined) leave(to);
}
