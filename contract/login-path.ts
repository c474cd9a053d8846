import { localePath, splitLocale, type Locale } from './locales.ts';

/** The login page, without locale prefix (`/th/login` in Thai). */
export const loginPath = '/login';

/** `returnTo`: a path on this site, where the visitor comes back to afterwards. */
export function loginThenBackTo(locale: Locale, returnTo: string): string {
  return `${localePath(locale, loginPath)}?redirect=${encodeURIComponent(returnTo)}`;
}

/** The login page, coming back to Play afterwards: `/login?redirect=%2Fplay` (`/th/...` in Thai). */
export function loginForPlay(locale: Locale): string {
  return loginThenBackTo(locale, localePath(locale, '/play'));
}

export function isLoginAddress(address: string): boolean {
  return splitLocale(address.split(/[?#]/, 1)[0]!).path === loginPath;
}
