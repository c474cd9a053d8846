import { cookieNames } from '../../contract/cookies.ts';
// The token cookie, apart from the API client (client/lib/api-client.ts): knowing whether anyone
// is logged in must not load ofetch and the client with every page.

/** The session cookie's name (contract/cookies.ts). */
export const TOKEN_COOKIE = cookieNames.session;

/**
 * Value of cookie `name` in a `Cookie` header / `document.cookie` string, decoded
 * (percent-decoding; surrounding double quotes removed). The first occurrence wins
 * (browsers send the most specific path first). Undefined when absent.
 * A value that is not valid percent-encoding is returned as it is.
 */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** The browser's token: cookie `token` from `document.cookie` (undefined on the server). */
export function browserToken(): string | undefined {
  try {
    return typeof document === 'undefined' ? undefined : readCookie(document.cookie, TOKEN_COOKIE);
  } catch {
    return undefined;
  }
}
