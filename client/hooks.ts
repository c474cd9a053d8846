import { useMatches, useRouteLoaderData } from 'react-router';
import { defaultLocale, isLocale, type Locale } from '../lib/locales.ts';
import type { PublicUser } from '../lib/page-data.ts';

/** The locale of the page being shown, from the locale route in the matches. */
export function useLocale(): Locale {
  const matches = useMatches();
  for (const match of matches) {
    const locale = (match.handle as { locale?: unknown } | undefined)?.locale;
    if (isLocale(locale)) return locale;
  }
  return defaultLocale;
}

export interface RootData {
  user: PublicUser | null;
}

export function useUser(): PublicUser | null {
  return (useRouteLoaderData('root') as RootData | undefined)?.user ?? null;
}
