import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { SWRConfig } from 'swr';
import { onServer, useMatchedLocale, useUser } from '../hooks.ts';
import { session } from '../lib/session.ts';
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
 * Loaders, prefetch and form actions use SWR's cache through its bound `mutate`; what SWR learns on
 * its own (a logout in another tab) reaches the session that route middleware reads, and a page
 * for signed-in visitors leaves (router/signed-out.ts). This tab's logout empties it first.
 */
function CurrentUserSync() {
  useBindRootCache();
  const user = useUser();
  useEffect(() => {
    const before = session.user();
    session.set(user);
    if (before && !user) loadNavigation().then((code) => code.leaveIfSignedOut(), noop);
  }, [user]);
  return null;
}

const noop = () => undefined;
