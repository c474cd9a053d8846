/** Notices shown once on the page a form ends on; without JavaScript through the `flash` cookie. */
export const flashCodes = ['signedIn', 'registered', 'signedOut', 'signedOutElsewhere', 'accountDeleted'] as const;
export type FlashCode = (typeof flashCodes)[number];

export function isFlashCode(value: unknown): value is FlashCode {
  return typeof value === 'string' && (flashCodes as readonly string[]).includes(value);
}
