import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { SWRConfig } from 'swr';
import { onServer, useMatchedLocale, useUser } from '../hooks.ts';
import { loadNavigation } from '../router/navigation-code.ts';
import { swrConfig, useBindRootCache } from '../lib/swr-config.ts';
import { TranslationProvider } from '../i18n.ts';
import { NoticeProvider } from './notices.tsx';
import { RouteAnnouncer } from './route-announcer.tsx';

/**
 * The top of the page tree: the language every string is read in, SWR's one configuration
 * (client/lib/swr-config.ts), the route announcer, and react-router's scroll restoration: Back and
 * Forward return to where the page was left, once its data has drawn it; a new page starts at its
 * top or its #section.
 */
export function Root() {
  const locale = useMatchedLocale();
  return (
    <TranslationProvider locale={locale}>
      <SWRConfig value={swrConfig}>
        {/* Effects only: nothing to do in the server render. */}
        {onServer ? null : <CurrentUserSync />}
        <RouteAnnouncer />
        <ScrollRestoration />
        <HydratedMarker />
        <NoticeProvider>
          <Outlet />
        </NoticeProvider>
      </SWRConfig>
    </TranslationProvider>
  );
}

/** `<html data-hydrated>` once React owns the page: tests and styles can tell the app is live. */
function HydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/**
 * Loaders, prefetch and form actions use SWR's cache through its bound `mutate`. When SWR learns on
 * its own that nobody is signed in (a logout in another tab), a page for signed-in visitors leaves
 * (router/signed-out.ts); during this tab's own logout the navigation under way goes first.
 */
function CurrentUserSync() {
  useBindRootCache();
  const user = useUser();
  const shown = useRef(user);
  useEffect(() => {
    const before = shown.current;
    shown.current = user;
    if (before && !user) loadNavigation().then((code) => code.leaveIfSignedOut(), noop);
  }, [user]);
  return null;
}

const noop = () => undefined;
