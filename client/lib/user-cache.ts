import type { PublicUser } from '../../contract/page-data.ts';
import { browserToken } from './cookies.ts';
import { session } from './session.ts';
import { apiFetcher, revalidateCached, setCached, statusOf } from './swr-config.ts';

// Who is logged in, in SWR's cache: read by `useUser()` (client/hooks.ts), seeded by the root
// loader's data (client/components/root.tsx), changed by the form actions.

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

/**
 * Login, registration, a password reset, a profile change, logout, deletion: the API's answer
 * is who is logged in now, for route middleware (session) and for what the page shows (SWR).
 */
export function setCurrentUser(user: PublicUser | null): Promise<void> {
  session.set(user);
  return setCached(userKey, { user } satisfies UserData);
}

/** An emailed link changed the account (verified, new address): ask the API again. */
export function revalidateCurrentUser(): Promise<void> {
  return revalidateCached(userKey);
}
