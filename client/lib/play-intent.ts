// "Log in, then play": Play pressed while logged out goes to login and back to `/play`, and that one
// arrival presses Play for the player. Nothing else does: a visit to `/play` shows the page and its
// Play button (docs/play.md). The mark is per tab, used once, and goes stale.

import { webStorage } from './web-storage.ts';

export const playIntentKey = 'asdas:play-after-login';
/** Longer than a login takes; short enough that an abandoned login does not play hours later. */
export const playIntentMaxAgeMs = 15 * 60_000;

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const tabStore = (): Store | null => webStorage('sessionStorage');

/** Play was pressed and is on its way through login. */
export function rememberPlayIntent(store: Store | null = tabStore(), now = Date.now()): void {
  try {
    store?.setItem(playIntentKey, String(now));
  } catch {
    // Storage refused: after login the player presses Play once more.
  }
}

/** Whether Play was pressed on the way here (and not too long ago); the mark is gone afterwards. */
export function takePlayIntent(store: Store | null = tabStore(), now = Date.now()): boolean {
  try {
    const at = Number(store?.getItem(playIntentKey) ?? NaN);
    store?.removeItem(playIntentKey);
    return Number.isFinite(at) && now >= at && now - at <= playIntentMaxAgeMs;
  } catch {
    return false;
  }
}
