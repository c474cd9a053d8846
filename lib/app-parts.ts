/**
 * Parts of the service a test may leave out (everything else is assembled as in production):
 * `accounts` is the database and everything kept in it (accounts, emailed links, Play, account
 * settings); `pages` is the React renderer, which needs the build in dist/ and the other parts.
 */
export type AppPart = 'accounts' | 'content' | 'icons' | 'builds' | 'pages';
