/**
 * The whole process's allowance of upstream icon fetches: at most `concurrency` at once and at
 * most `perMinute` started in any 60 seconds (a sliding window of start times, so never more
 * than `perMinute` numbers are kept). Whatever the clients, the upstream never sees more from
 * one replica, and a flood of distinct unknown collections cannot hold more sockets than that.
 */

export type BudgetAnswer =
  | { ok: true; release: () => void }
  | { ok: false; reason: 'concurrency' | 'rate'; retryAfterSeconds: number };

export interface UpstreamBudget {
  /** Takes one fetch from the allowance (give it back with `release` when the fetch ends), or says when to try again. */
  take(): BudgetAnswer;
  /** Fetches running now (metrics, tests). */
  readonly active: number;
}

const WINDOW_MS = 60_000;

export function upstreamBudget(options: { concurrency: number; perMinute: number; now?: () => number }): UpstreamBudget {
  const now = options.now ?? (() => performance.now());
  const starts: number[] = [];
  let active = 0;
  return {
    get active() {
      return active;
    },
    take() {
      const time = now();
      while (starts.length > 0 && starts[0]! <= time - WINDOW_MS) starts.shift();
      if (starts.length >= options.perMinute) {
        return { ok: false, reason: 'rate', retryAfterSeconds: Math.max(1, Math.ceil((starts[0]! + WINDOW_MS - time) / 1000)) };
      }
      // A fetch lasts at most the upstream timeout (1.5 s): a second is a fair wait.
      if (active >= options.concurrency) return { ok: false, reason: 'concurrency', retryAfterSeconds: 1 };
      starts.push(time);
      active += 1;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          active -= 1;
        },
      };
    },
  };
}
