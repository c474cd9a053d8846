import { notFoundMessages } from './http-error.ts';
import { loginPath } from './login-path.ts';
import type { ArticleListData } from './content.ts';
import type { PageErrorInfo } from './page-error.ts';

/** Every page, for server and client: `client/<module>`, and its `.server.ts` for data or a form. */

export type MiddlewareName = 'auth' | 'guest';

export interface SearchProblem {
  status: number;
  message: string;
  detail?: PageErrorInfo['detail'];
}

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

export interface PageRoute {
  id: PageId;
  /** '' is the locale's home; '*' is the catch-all and may span several segments. */
  path: string;
  module: string;
  /** The page has a loader: its data comes with its document, or as its `_payload.json`. */
  data?: true;
  validate?: (params: Readonly<Record<string, string | undefined>>) => boolean;
  middleware?: readonly MiddlewareName[];
  /** A POST to the page runs its server half's `action`, with or without JavaScript. */
  action?: true;
  /** The language's account strings, loaded (and preloaded) with the page's module. */
  strings?: 'account';
  /** The page's data never depends on the query; this checks the query against it. */
  checkSearch?(search: URLSearchParams, data: unknown, fullPath: string): SearchProblem | undefined;
  /** The query parameters the page reads: other spellings are redirected to one (page-query.ts). */
  query?: readonly string[];
  /** Same for every visitor but its `<VisitorPart>`s: signed in, drawn from a shell (decision 0037). */
  sharedRender?: true;
  /** Opened with `?launch=<token>`: the token is spent before the page renders (plugins/app/play.ts). */
  launchToken?: true;
  /** Opened from an emailed link: `?token=` is checked first and never stored (plugins/app/account-links.ts). */
  emailedLink?: true;
}

/** A page's file name (`article-list` for `pages/article-list.tsx`): its server half's, metrics', traces'. */
export const pageName = (module: string) => module.replace(/^pages\/(.*)\.tsx$/, '$1');

const articleSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function checkPageNumber(search: URLSearchParams, data: ArticleListData, fullPath: string): SearchProblem | undefined {
  const raw = search.get('page');
  if (raw === null) return undefined;
  if (!/^[1-9]\d{0,5}$/.test(raw))
    return {
      status: 400,
      message: `Invalid page number: ${raw}`,
      detail: { key: 'badPageNumber', values: { value: raw } },
    };
  const pageCount = Math.max(1, Math.ceil(data.articles.length / data.pageSize));
  return Number(raw) > pageCount ? { status: 404, message: notFoundMessages.page(fullPath) } : undefined;
}

export const pageRoutes: readonly PageRoute[] = [
  { id: 'home', path: '', data: true, module: 'pages/home.tsx', sharedRender: true },
  {
    id: 'articles',
    path: 'asdas',
    data: true,
    module: 'pages/article-list.tsx',
    checkSearch: checkPageNumber,
    query: ['page'],
    sharedRender: true,
  },
  {
    id: 'article',
    path: 'asdas/:slug',
    data: true,
    validate: ({ slug }) => articleSlugPattern.test(slug ?? ''),
    module: 'pages/article.tsx',
    sharedRender: true,
  },
  {
    id: 'login',
    path: loginPath.slice(1),
    middleware: ['guest'],
    action: true,
    module: 'pages/login.tsx',
    strings: 'account',
  },
  {
    id: 'registration',
    path: 'registration',
    middleware: ['guest'],
    action: true,
    module: 'pages/registration.tsx',
    strings: 'account',
  },
  { id: 'logout', path: 'logout', action: true, module: 'pages/logout.tsx', strings: 'account' },
  {
    id: 'forgot-password',
    path: 'forgot-password',
    action: true,
    module: 'pages/forgot-password.tsx',
    strings: 'account',
  },
  {
    id: 'reset-password',
    path: 'reset-password',
    emailedLink: true,
    action: true,
    module: 'pages/reset-password.tsx',
    strings: 'account',
  },
  {
    id: 'verify-email',
    path: 'verify-email',
    emailedLink: true,
    action: true,
    module: 'pages/verify-email.tsx',
    strings: 'account',
  },
  {
    id: 'confirm-email',
    path: 'confirm-email',
    emailedLink: true,
    action: true,
    module: 'pages/confirm-email.tsx',
    strings: 'account',
  },
  {
    id: 'play',
    path: 'play',
    data: true,
    launchToken: true,
    middleware: ['auth'],
    action: true,
    module: 'pages/play.tsx',
    strings: 'account',
  },
  {
    id: 'account',
    path: 'account',
    data: true,
    middleware: ['auth'],
    action: true,
    module: 'pages/account.tsx',
    strings: 'account',
  },
  { id: 'content', path: '*', data: true, module: 'pages/content.tsx', sharedRender: true },
];
