import { useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useLocale } from '../hooks.ts';
import { i18nFor } from '../i18n.ts';
import { DocumentHead } from './document-head.tsx';

/** The top of the page tree: the language every string is read in, the document head, scroll. */
export function Root() {
  const locale = useLocale();
  return (
    <I18nextProvider i18n={i18nFor(locale)}>
      <DocumentHead />
      <ScrollToTop />
      <HydratedMarker />
      <Outlet />
    </I18nextProvider>
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
