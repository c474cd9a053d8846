import type { ComponentType } from 'react';
import type { ActionFunction, Params } from 'react-router';
import { notFound, pageError } from './router/page-error.ts';

/** What a lazily loaded page module exports. */
export interface PageModule {
  default: ComponentType;
  /** In the browser a form page submits through the API instead of posting the document. */
  clientAction?: ActionFunction;
}

/**
 * One page of the site, as both the server render and the client router see it.
 * Paths are relative to the locale root: every page exists at `/x` (English) and `/th/x` (Thai).
 */
export interface PageRoute {
  id: string;
  /** '' is the locale's home; '*' is the catch-all and may span several segments. */
  path: string;
  page: () => Promise<PageModule>;
  /** The page module's path under client/, as `page` imports it: the server preloads its chunk. */
  module: string;
  /** Name of the server-side data source (see plugins/page-data.ts); none means the page needs no data. */
  data?: string;
  /** Route params check; failing it is the spec's fatal 404 `Page Not Found: {path}`. */
  validate?: (params: Params) => boolean;
  /** Named route middleware (client/router/middleware.ts), run before the data on both sides. */
  middleware?: readonly string[];
  /** Name of the server-side form action (plugins/form-actions.ts) a plain form POST runs. */
  action?: string;
  /**
   * Checks the query string against the page's data (which never depends on the query):
   * throw `pageError(...)` for a value the page cannot show.
   */
  checkSearch?: (search: URLSearchParams, data: unknown, fullPath: string) => void;
}

/** Lowercase words joined by single hyphens: `understanding-odds`. */
export const articleSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const pageRoutes: readonly PageRoute[] = [
  { id: 'home', path: '', data: 'home', module: 'pages/home.tsx', page: () => import('./pages/home.tsx') },
  {
    id: 'articles',
    path: 'asdas',
    data: 'articleList',
    module: 'pages/article-list.tsx',
    page: () => import('./pages/article-list.tsx'),
    checkSearch: checkPageNumber,
  },
  {
    id: 'article',
    path: 'asdas/:slug',
    data: 'article',
    validate: ({ slug }) => articleSlugPattern.test(slug ?? ''),
    module: 'pages/article.tsx',
    page: () => import('./pages/article.tsx'),
  },
  {
    id: 'login',
    path: 'login',
    middleware: ['guest'],
    action: 'login',
    module: 'pages/login.tsx',
    page: () => import('./pages/login.tsx'),
  },
  {
    id: 'registration',
    path: 'registration',
    middleware: ['guest'],
    action: 'register',
    module: 'pages/registration.tsx',
    page: () => import('./pages/registration.tsx'),
  },
  { id: 'logout', path: 'logout', action: 'logout', module: 'pages/logout.tsx', page: () => import('./pages/logout.tsx') },
  // Accounts people can keep (issue 13): the pages emailed links open never embed data of their
  // own; the server checks the token before they render (plugins/account-links.ts).
  {
    id: 'forgot-password',
    path: 'forgot-password',
    action: 'forgotPassword',
    module: 'pages/forgot-password.tsx',
    page: () => import('./pages/forgot-password.tsx'),
  },
  {
    id: 'reset-password',
    path: 'reset-password',
    action: 'resetPassword',
    module: 'pages/reset-password.tsx',
    page: () => import('./pages/reset-password.tsx'),
  },
  {
    id: 'verify-email',
    path: 'verify-email',
    action: 'verifyEmail',
    module: 'pages/verify-email.tsx',
    page: () => import('./pages/verify-email.tsx'),
  },
  {
    id: 'confirm-email',
    path: 'confirm-email',
    action: 'confirmEmail',
    module: 'pages/confirm-email.tsx',
    page: () => import('./pages/confirm-email.tsx'),
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
    page: () => import('./pages/play.tsx'),
  },
  {
    id: 'account',
    path: 'account',
    data: 'account',
    middleware: ['auth'],
    // Every form of the page posts here with an `intent` (plugins/account-settings.ts).
    action: 'account',
    module: 'pages/account.tsx',
    page: () => import('./pages/account.tsx'),
  },
  { id: 'content', path: '*', data: 'contentPage', module: 'pages/content.tsx', page: () => import('./pages/content.tsx') },
];

/** `?page=N` on a paginated list: not a whole number is a 400 page, past the end a 404. */
function checkPageNumber(search: URLSearchParams, data: unknown, fullPath: string): void {
  const raw = search.get('page');
  if (raw === null) return;
  if (!/^[1-9]\d{0,5}$/.test(raw)) pageError(400, `Invalid page number: ${raw}`);
  const { articles, pageSize } = data as { articles: unknown[]; pageSize: number };
  const pageCount = Math.max(1, Math.ceil(articles.length / pageSize));
  if (Number(raw) > pageCount) notFound(fullPath);
}
