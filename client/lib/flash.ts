import { cookieNames } from '../../lib/cookies.ts';

/**
 * One-shot messages after a form ("You are signed in"), shown once on the page the form ends on.
 * Without JavaScript the server's form action sets the `flash` cookie and the next page's render
 * reads and clears it (plugins/ssr.ts); with JavaScript the page's own action leaves the code
 * here for the notice area to take after the navigation (client/components/notices.tsx).
 */
export const flashCodes = ['signedIn', 'registered', 'signedOut', 'accountDeleted'] as const;
export type FlashCode = (typeof flashCodes)[number];

export const flashCookie = cookieNames.flash;

export function isFlashCode(value: unknown): value is FlashCode {
  return typeof value === 'string' && (flashCodes as readonly string[]).includes(value);
}

let pending: FlashCode | null = null;

/** Leaves a message for the next page the browser shows. */
export function setFlash(code: FlashCode): void {
  pending = code;
}

/** The message left for this page, once. */
export function takeFlash(): FlashCode | null {
  const code = pending;
  pending = null;
  return code;
}
