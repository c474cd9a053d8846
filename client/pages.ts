import type { ComponentType } from 'react';
import type { PageId } from '../contract/routes.ts';

/** What a lazily loaded page module exports. */
export interface PageModule {
  default: ComponentType;
}

/**
 * The page bindings: the component module of each page of the route manifest
 * (contract/routes.ts), by id, loaded lazily (one chunk per page). A page the manifest names
 * without a module here, or a module here for no page, fails the type check.
 */
export const pageModules: Record<PageId, () => Promise<PageModule>> = {
  home: () => import('./pages/home.tsx'),
  articles: () => import('./pages/article-list.tsx'),
  article: () => import('./pages/article.tsx'),
  login: () => import('./pages/login.tsx'),
  registration: () => import('./pages/registration.tsx'),
  logout: () => import('./pages/logout.tsx'),
  'forgot-password': () => import('./pages/forgot-password.tsx'),
  'reset-password': () => import('./pages/reset-password.tsx'),
  'verify-email': () => import('./pages/verify-email.tsx'),
  'confirm-email': () => import('./pages/confirm-email.tsx'),
  play: () => import('./pages/play.tsx'),
  account: () => import('./pages/account.tsx'),
  content: () => import('./pages/content.tsx'),
};
