// The navigation chunk's one door (vite.config.ts, `navigationCode`): what the first load imports on
// demand, after hydration or with the first navigation, prefetch or form submission.
export { checkPage, loadPage } from './page-loader.ts';
export { fetchPayload, pageData } from './payload.ts';
export { postForm } from './form-post.ts';
export { leaveIfSignedOut } from './signed-out.ts';
export { prefetchPage, prefetchWhenVisible } from './prefetch.ts';
export { navigateTo } from '../lib/navigate.ts';
export { safeRedirectPath } from '../../contract/navigation-guard.ts';
