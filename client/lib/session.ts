import type { PublicUser } from '../../contract/page-data.ts';

/**
 * Who is logged in, as the browser knows it. Seeded from the server's render, updated by
 * login and logout; route middleware reads it before a page's data is fetched.
 */
let currentUser: PublicUser | null = null;

export const session = {
  user(): PublicUser | null {
    return currentUser;
  },
  set(user: PublicUser | null): void {
    currentUser = user;
  },
};
