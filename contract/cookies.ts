/**
 * Every cookie the site sets, by name, for the server and the browser alike:
 * - `session`: the login session's token (the spec names it `token`; the client reads it and
 *   sends it as `Authorization: Bearer`, docs/decisions/0002);
 * - `flash`: a one-minute, HttpOnly notice for the next page after a form posted without JavaScript;
 * - `language`: the visitor's language choice, so `/` stops following Accept-Language.
 */
export const cookieNames = {
  session: 'token',
  flash: 'flash',
  language: 'lang',
} as const;
