import { useEffect } from 'react';
import { Outlet, useLocation, useRouteLoaderData } from 'react-router';
import { currentUserStore, onServer, useLocale, useUser, type RootData } from '../hooks.ts';
import { session } from '../lib/session.ts';
import { TranslationProvider } from '../i18n.ts';
import { DocumentHead } from './document-head.tsx';
import { NoticeProvider } from './notices.tsx';
import { RouteAnnouncer } from './route-announcer.tsx';

/** The top of the page tree: the language every string is read in, the document head, scroll. */
export function Root() {
  const locale = useLocale();
  const rootData = useRouteLoaderData('root') as RootData;
  return (
    <TranslationProvider locale={locale}>
      {/* Effects only: nothing to do in the server render. */}
      {onServer ? null : <CurrentUserSync rootData={rootData} />}
      <DocumentHead />
      <RouteAnnouncer />
      <ScrollToTop />
      <HydratedMarker />
      <NoticeProvider>
        <Outlet />
      </NoticeProvider>
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
 * Keeps the three views of "who is logged in" in step: the root loader (changed by login and
 * logout), the current-user store (refreshed on focus) and the session store route middleware reads.
 */
function CurrentUserSync({ rootData }: { rootData: RootData }) {
  const user = useUser();
  useEffect(() => {
    currentUserStore.seed(rootData);
  }, [rootData]);
  useEffect(() => {
    session.set(user);
  }, [user]);
  return null;
}
