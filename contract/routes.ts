import { notFoundMessages } from './http-error.ts';
import { loginPath } from './login-path.ts';
import type { DataSourceKey, PageDataMap } from './data-sources.ts';

/**
 * The route manifest: every page of the site as data, for the server render, the client router
 * and the server's data sources and form actions alike. Which component a page shows is bound in
 * client/pages.ts (by `id`), so nothing here imports a page.
 * Paths are relative to the locale root: every page exists at `/x` (English) and `/th/x` (Thai).
 */

/** Route middleware (client/router/middleware.ts), run before the data on both sides. */
export type MiddlewareName = 'auth' | 'guest';

/** What a page's query string cannot be: the page answers this status and message instead. */
export interface SearchProblem {
  status: number;
  message: string;
}

/** The pages, by id: client/pages.ts binds a component module to each. */
export type PageId =
  | 'home'
  | 'articles'
  | 'article'
  | 'login'
  | 'registration'
  | 'logout'
  | 'forgot-password'
  | 'reset-password'
  | 'verify-email'
  | 'confirm-email'
  | 'play'
  | 'account'
  | 'content';

export interface PageRoute<K extends DataSourceKey = DataSourceKey> {
  id: PageId;
  /** '' is the locale's home; '*' is the catch-all and may span several segments. */
  path: string;
  /** The page module's path under client/ (client/pages.ts imports it): the server preloads its chunk. */
  module: string;
  /** The server data source (contract/data-sources.ts) the page renders from; none: no data. */
  data?: K;
  /** Route params check; failing it is the spec's fatal 404 `Page Not Found: {path}`. */
  validate?: (params: Readonly<Record<string, string | undefined>>) => boolean;
  middleware?: readonly MiddlewareName[];
  /** The server-side form action (routes/forms/) a plain form POST runs. */
  action?: FormActionName;
  /**
   * 'account': the page shows the language's account strings (forms, the account page, Play), which
   * the browser loads with the page's module (client/i18n.ts) and the server preloads with it.
   */
  strings?: 'account';
  /** Checks the query string against the page's data (which never depends on the query). */
  checkSearch?(search: URLSearchParams, data: PageDataMap[K], fullPath: string): SearchProblem | undefined;
  /**
   * The query parameters an anonymous visitor's page depends on (`?page=2`): the page cache keeps
   * the page once per their values; an address with any other parameter is rendered, never kept.
   */
  cacheQuery?: readonly string[];
}

/** The form actions routes/forms/ defines, by the name the manifest gives them. */
export type FormActionName =
  | 'login'
  | 'register'
  | 'logout'
  | 'forgotPassword'
  | 'resetPassword'
  | 'verifyEmail'
  | 'confirmEmail'
  | 'play'
  | 'account'
  | 'selfExclusion';

/** Lowercase words joined by single hyphens: `understanding-odds`. */
const articleSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** `?page=N` on a paginated list: not a whole number is a 400 page, past the end a 404. */
function checkPageNumber(search: URLSearchParams, data: PageDataMap['articleList'], fullPath: string): SearchProblem | undefined {
  const raw = search.get('page');
  if (raw === null) return undefined;
  if (!/^[1-9]\d{0,5}$/.test(raw)) return { status: 400, message: `Invalid page number: ${raw}` };
  const pageCount = Math.max(1, Math.ceil(data.articles.length / data.pageSize));
  return Number(raw) > pageCount ? { status: 404, message: notFoundMessages.page(fullPath) } : undefined;
}

export const pageRoutes: readonly PageRoute[] = [
  { id: 'home', path: '', data: 'home', module: 'pages/home.tsx' },
  {
    id: 'articles',
    path: 'asdas',
    data: 'articleList',
    module: 'pages/article-list.tsx',
    checkSearch: checkPageNumber,
    cacheQuery: ['page'],
  },
  {
    id: 'article',
    path: 'asdas/:slug',
    data: 'article',
    validate: ({ slug }) => articleSlugPattern.test(slug ?? ''),
    module: 'pages/article.tsx',
  },
  {
    id: 'login',
    path: loginPath.slice(1),
    middleware: ['guest'],
    action: 'login',
    module: 'pages/login.tsx',
    strings: 'account',
  },
  {
    id: 'registration',
    path: 'registration',
    middleware: ['guest'],
    action: 'register',
    module: 'pages/registration.tsx',
    strings: 'account',
  },
  { id: 'logout', path: 'logout', action: 'logout', module: 'pages/logout.tsx', strings: 'account' },
  // Accounts people can keep (issue 13): the pages emailed links open never embed data of their
  // own; the server checks the token before they render (plugins/account-links.ts).
  {
    id: 'forgot-password',
    path: 'forgot-password',
    action: 'forgotPassword',
    module: 'pages/forgot-password.tsx',
    strings: 'account',
  },
  {
    id: 'reset-password',
    path: 'reset-password',
    action: 'resetPassword',
    module: 'pages/reset-password.tsx',
    strings: 'account',
  },
  {
    id: 'verify-email',
    path: 'verify-email',
    action: 'verifyEmail',
    module: 'pages/verify-email.tsx',
    strings: 'account',
  },
  {
    id: 'confirm-email',
    path: 'confirm-email',
    action: 'confirmEmail',
    module: 'pages/confirm-email.tsx',
    strings: 'account',
  },
  // Play (issue 7): the own play destination, and the account with play sessions and breaks.
  // Play's form (the header's button without JavaScript) posts here: the `play` form action.
  // Its data is the player's latest play sessions: `/play?session=<id>` shows one.
  {
    id: 'play',
    path: 'play',
    data: 'play',
    middleware: ['auth'],
    action: 'play',
    module: 'pages/play.tsx',
    strings: 'account',
  },
  {
    id: 'account',
    path: 'account',
    data: 'account',
    middleware: ['auth'],
    // Every form of the page posts here with an `intent` (routes/forms/account.ts).
    action: 'account',
    module: 'pages/account.tsx',
    strings: 'account',
  },
  { id: 'content', path: '*', data: 'contentPage', module: 'pages/content.tsx' },
];
