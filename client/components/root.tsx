import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SWRConfig } from 'swr';
import { onServer, useMatchedLocale, useUser } from '../hooks.ts';
import { session } from '../lib/session.ts';
import { swrConfig, useBindRootCache } from '../lib/swr-config.ts';
import { TranslationProvider } from '../i18n.ts';
import { NoticeProvider } from './notices.tsx';
import { RouteAnnouncer } from './route-announcer.tsx';

/**
 * The top of the page tree: the language every string is read in, SWR's one configuration
 * (client/lib/swr-config.ts), the route announcer, scroll.
 */
export function Root() {
  const locale = useMatchedLocale();
  return (
    <TranslationProvider locale={locale}>
      <SWRConfig value={swrConfig}>
        {/* Effects only: nothing to do in the server render. */}
        {onServer ? null : <CurrentUserSync />}
        <RouteAnnouncer />
        <ScrollToTop />
        <HydratedMarker />
        <NoticeProvider>
          <Outlet />
        </NoticeProvider>
      </SWRConfig>
    </TranslationProvider>
  );
}

/** A new page starts at its top, unless the address points at a section of it. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
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
 * its own (a logout in another tab, seen on return) reaches the session store route middleware reads.
 */
function CurrentUserSync() {
  useBindRootCache();
  const user = useUser();
  useEffect(() => {
    session.set(user);
  }, [user]);
  return null;
}
