import { cookieNames } from '../../contract/cookies.ts';
// Apart from the API client: knowing whether anyone is logged in must not load ofetch.

export const TOKEN_COOKIE = cookieNames.session;

/** Decoded; the first occurrence wins (browsers send the most specific path first). */
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

export function browserToken(): string | undefined {
  try {
    return typeof document === 'undefined' ? undefined : readCookie(document.cookie, TOKEN_COOKIE);
  } catch {
    return undefined;
  }
}
