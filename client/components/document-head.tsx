import { useLayoutEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import { pageTitle } from '../../contract/page-title.ts';
import type { SeoData } from '../../contract/seo.ts';
import { useLocale } from '../hooks.ts';
import { fallbackSeo } from '../router/fallback-seo.ts';
import { toPageErrorInfo } from '../router/page-error.ts';
import { useRuntime } from '../runtime.tsx';

/**
 * The server writes the whole head; after a client navigation this rewrites it (title,
 * description, canonical, hreflang, Open Graph, JSON-LD) and `<html lang>` for the page now shown.
 * The title and language at once, in a layout effect: RouteAnnouncer, above the page in the tree,
 * reads the title in its (later) passive effect. The other
 * tags once contract/seo.ts is loaded: it is loaded after hydration, not with the page (first-load
 * budget, test/ssr/first-load.test.ts), and nobody reads those tags in between.
 * Drawn by the layout for a page, and by the error boundaries with the `error` they show.
 */
export function DocumentHead({ error }: { error?: unknown }) {
  const matches = useMatches();
  const locale = useLocale();
  const { pathname } = useLocation();
  const { publicUrl, dev } = useRuntime();
  const leaf = matches[matches.length - 1];
  const seo = (leaf?.loaderData as { seo?: SeoData } | null | undefined)?.seo;
  useLayoutEffect(() => {
    document.documentElement.lang = locale;
    const shown =
      error !== undefined
        ? fallbackSeo(pathname, locale, toPageErrorInfo(error, { exposeDetails: dev }))
        : (seo ?? fallbackSeo(pathname, locale));
    document.title = pageTitle(shown.title);
    let current = true;
    import('../../contract/seo.ts').then(
      ({ applyHeadEntries, headEntries }) => {
        if (current) applyHeadEntries(document, headEntries(shown, { locale, publicUrl }));
      },
      // A chunk that fails to load leaves the previous page's tags; the title and language are right.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [locale, seo, error, pathname, publicUrl, dev]);
  return null;
}
