import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { useLocale } from '../hooks.ts';

interface SeoLike {
  title?: string;
  description?: string;
}

/**
 * The server writes the whole head; after client navigation this keeps the title, description
 * and `<html lang>` in step with the page now shown.
 */
export function DocumentHead() {
  const matches = useMatches();
  const locale = useLocale();
  const leaf = matches[matches.length - 1];
  const seo = (leaf?.data as { seo?: SeoLike } | null | undefined)?.seo;
  useEffect(() => {
    document.documentElement.lang = locale;
    if (seo?.title) document.title = seo.title;
    if (seo?.description) document.querySelector('meta[name="description"]')?.setAttribute('content', seo.description);
  }, [locale, seo?.title, seo?.description]);
  return null;
}
