/**
 * The process's allowance of upstream icon fetches, whatever the clients: at most `concurrency`
 * at once and `perMinute` started in any 60 seconds (decision 0027).
 */

export type BudgetAnswer =
  { ok: true; release: () => void } | { ok: false; reason: 'concurrency' | 'rate'; retryAfterSeconds: number };

export interface UpstreamBudget {
  /** Call `release` when the fetch ends. */
  take(): BudgetAnswer;
  readonly active: number;
}

const WINDOW_MS = 60_000;

export function upstreamBudget(options: {
  concurrency: number;
  perMinute: number;
  now?: () => number;
}): UpstreamBudget {
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
        return {
          ok: false,
          reason: 'rate',
          retryAfterSeconds: Math.max(1, Math.ceil((starts[0]! + WINDOW_MS - time) / 1000)),
        };
      }
      // A fetch lasts at most the upstream timeout (1.5 s by default): a second is a fair wait.
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
