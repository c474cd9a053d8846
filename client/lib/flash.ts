import type { FlashCode } from '../../contract/flash.ts';

/** With JavaScript, the notice the page's own action leaves for the next page (client/components/notices.tsx). */
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
