/**
 * Parts of the service a test may leave out. `accounts` is the database and everything kept in
 * it; `pages` is the React renderer, which needs the build in dist/.
 */
export type AppPart = 'accounts' | 'content' | 'icons' | 'builds' | 'pages';
