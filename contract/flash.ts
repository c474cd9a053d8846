/**
 * One-shot messages after a form ("You are signed in"), shown once on the page the form ends on.
 * Without JavaScript the server's form action sets the `flash` cookie (contract/cookies.ts) and
 * the next page's render reads and clears it (routes/pages.ts); with JavaScript the page's own
 * action leaves the code for the notice area (client/lib/flash.ts).
 */
export const flashCodes = ['signedIn', 'registered', 'signedOut', 'accountDeleted'] as const;
export type FlashCode = (typeof flashCodes)[number];

export function isFlashCode(value: unknown): value is FlashCode {
  return typeof value === 'string' && (flashCodes as readonly string[]).includes(value);
}
