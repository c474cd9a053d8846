import type { PublicUser } from '../../contract/page-data.ts';
import { appRouter } from './app-router.ts';
import { browserToken } from './cookies.ts';
import { apiFetcher, type Dated, rootCache, setCached, statusOf } from './swr-config.ts';

// Who is logged in, in SWR's cache alone: read by `useUser()` (client/hooks.ts) and the loaders,
// seeded by the root loader's data, changed by the form actions and by what the API answers.

export interface UserData {
  user: PublicUser | null;
}

/** The one key of the current user: the path its fetcher asks, and the key the root seeds. */
export const userKey = '/auth/me';

/** Asked of the API only when a token exists: no token means nobody, and so does a 401. */
export async function fetchCurrentUser(key: string): Promise<UserData> {
  if (!browserToken()) return { user: null };
  try {
    return await apiFetcher<UserData>(key);
  } catch (error) {
    if (statusOf(error) === 401) return { user: null };
    throw error;
  }
}

/** Who is logged in now: SWR's entry once it holds one, until then what the server rendered. */
export function currentUser(): PublicUser | null {
  const entry = rootCache()?.cache.get(userKey)?.data as Dated<UserData> | undefined;
  if (entry) return entry.data.user;
  return (appRouter()?.state.loaderData.root as UserData | undefined)?.user ?? null;
}

/** Login, registration, a password reset, a profile change, logout, deletion: who is logged in now. */
export function setCurrentUser(user: PublicUser | null): Promise<void> {
  return setCached(userKey, { user } satisfies UserData);
}
