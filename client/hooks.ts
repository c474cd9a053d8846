import { useLoaderData, useMatches } from 'react-router';
import useSWR from 'swr';
import type { DataSourceKey, PageDataMap } from '../contract/data-sources.ts';
import { defaultLocale, isLocale, type Locale } from '../contract/locales.ts';
import type { PublicUser } from '../contract/page-data.ts';
import { fetchCurrentUser, userKey, type UserData } from './lib/user-cache.ts';

/** The locale of the page being shown, from the locale route in the matches. */
export function useLocale(): Locale {
  const matches = useMatches();
  for (const match of matches) {
    const locale = (match.handle as { locale?: unknown } | undefined)?.locale;
    if (isLocale(locale)) return locale;
  }
  return defaultLocale;
}

/** The one place loader data gets its type, from the data source the route manifest names. */
export function usePageData<K extends DataSourceKey>(_source: K): PageDataMap[K] {
  return useLoaderData() as PageDataMap[K];
}

/** True in the server render (no DOM): hooks that only matter in the browser are skipped there. */
export const onServer = typeof document === 'undefined';

/** The root loader's data: who is logged in, as the server rendered it (the seed of `useUser`). */
export type RootData = UserData;

/**
 * Who is logged in, from SWR's cache (client/lib/user-cache.ts): the root loader's data until the
 * API is asked; returning to the tab asks again, so a logout in another tab shows here.
 */
export function useUser(): PublicUser | null {
  return useSWR<UserData>(userKey, fetchCurrentUser).data?.user ?? null;
}
