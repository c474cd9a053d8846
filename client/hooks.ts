import { useLoaderData, useLocation, useMatches, useRouteLoaderData } from 'react-router';
import { cookieNames } from '../contract/cookies.ts';
import { defaultLocale, isLocale, localePath, splitLocale, type Locale } from '../contract/locales.ts';
import type { PublicUser } from '../contract/page-data.ts';
import type { PageHandle } from '../contract/route-tree.ts';
import type { PageRoute } from '../contract/routes.ts';
import { useSeededSWR } from './lib/swr-config.ts';
import { fetchCurrentUser, userKey, type UserData } from './lib/user-cache.ts';
import { useTranslationLocale } from './i18n.ts';
import { loadNavigation } from './router/navigation-code.ts';
import { payloadUrl } from './router/payload-url.ts';

/**
 * The locale of the page being shown, from the locale route in the matches: for the root and its
 * error boundary, which provide it to the rest (TranslationProvider).
 */
export function useMatchedLocale(): Locale {
  const matches = useMatches();
  for (const match of matches) {
    const locale = (match.handle as { locale?: unknown } | undefined)?.locale;
    if (isLocale(locale)) return locale;
  }
  return defaultLocale;
}

/** The route table's entry of the page shown, for the frame around it (the header's way back). */
export function useMatchedPage(): PageRoute | undefined {
  return (useMatches().at(-1)?.handle as PageHandle | undefined)?.page;
}

/** The locale of the page being shown, as the root provides it (no walk over the matches per call). */
export function useLocale(): Locale {
  return useTranslationLocale();
}

/** What a page's loader gives: `Loader` is `typeof loader` of its `.server.ts` (a type, never its code). */
export type LoaderData<Loader> = Loader extends (...args: never[]) => infer Data ? Awaited<Data> : never;

export function usePageData<Loader>(): LoaderData<Loader> {
  return useLoaderData() as LoaderData<Loader>;
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
  const seed = useRouteLoaderData<RootData>('root') ?? noUser;
  return useSeededSWR(userKey, fetchCurrentUser, seed).user;
}

const noUser: UserData = { user: null };

/**
 * A page's data that changes while it is shown (the account page's login and play sessions): the
 * loader's, then kept fresh by SWR like the current user, under the key navigations use.
 */
export function useLivePageData<Loader>(): LoaderData<Loader> {
  const { pathname } = useLocation();
  return useSeededSWR(
    payloadUrl(pathname),
    livePageData as (key: string) => Promise<LoaderData<Loader>>,
    usePageData<Loader>(),
  );
}

const livePageData = (key: string) => loadNavigation().then(({ pageData }) => pageData(key));

/** Remembers the visitor's choice, so `/` no longer follows the browser's Accept-Language. */
function rememberLanguage(locale: Locale) {
  document.cookie = `${cookieNames.language}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** The same page in the other language (path and query kept), and what a click on it remembers. */
export function useOtherLanguage(): { locale: Locale; href: string; remember: () => void } {
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const target: Locale = locale === 'en' ? 'th' : 'en';
  return {
    locale: target,
    href: localePath(target, splitLocale(pathname).path) + search,
    remember: () => rememberLanguage(target),
  };
}
