/** The site's languages: English is the default and the fallback, Thai lives under /th. */
export const locales = ['en', 'th'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'th';
}

/** Splits `/th/asdas/x` into `{ locale: 'th', path: '/asdas/x' }`; unprefixed paths are English. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  if (pathname === '/th' || pathname.startsWith('/th/')) {
    return { locale: 'th', path: pathname.slice(3) || '/' };
  }
  return { locale: 'en', path: pathname || '/' };
}

/** `path`: unprefixed, starting with `/`. */
export function localePath(locale: Locale, path: string): string {
  if (locale === defaultLocale) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}
