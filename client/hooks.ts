import { useEffect, useSyncExternalStore } from 'react';
import { useLoaderData, useMatches, useRouteLoaderData } from 'react-router';
import type { DataSourceKey, PageDataMap } from '../contract/data-sources.ts';
import { defaultLocale, isLocale, type Locale } from '../contract/locales.ts';
import type { PublicUser } from '../contract/page-data.ts';
import { api } from './lib/api.ts';
import { browserToken } from './lib/cookies.ts';
import { createBrowserCurrentUserStore, statusOf } from './lib/current-user.ts';

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

export interface RootData {
  user: PublicUser | null;
}

const currentUserKey = '/auth/me';

/** Who is logged in, asked of the API only when a token exists: no token means nobody. */
async function fetchCurrentUser(): Promise<RootData> {
  if (!browserToken()) return { user: null };
  try {
    return await api<RootData>(currentUserKey);
  } catch (error) {
    if (statusOf(error) === 401) return { user: null };
    throw error;
  }
}

export const currentUserStore = createBrowserCurrentUserStore(fetchCurrentUser);

const noSubscription = () => () => {};

/** Kept fresh by the store: logging out in another tab shows here when this tab regains focus. */
export function useUser(): PublicUser | null {
  const seeded = useRouteLoaderData<RootData>('root');
  // The snapshot before the store is seeded (hydration) is the root loader's data, so the first
  // client render matches the server's. On the server nothing subscribes.
  const data = useSyncExternalStore(
    onServer ? noSubscription : (listener) => currentUserStore.subscribe(listener),
    currentUserStore.getSnapshot,
    () => undefined,
  );
  useEffect(() => {
    // The seed first, so hydration fetches nothing; a later mount asks if the value is stale.
    if (seeded) currentUserStore.seed(seeded);
    void currentUserStore.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount: `seeded` is the first render's
  }, []);
  return (data ?? seeded)?.user ?? null;
}
