// The `/play` page's optional reminder. The timing takes its timers as arguments, for tests.

import { webStorage } from './web-storage.ts';

export const reminderChoices = [30, 60, 0] as const;
/** Minutes between reminders; 0 is off. */
export type ReminderChoice = (typeof reminderChoices)[number];
export const reminderStorageKey = 'asdas:play-reminder-minutes';
/** The query parameter of `/play?session=<id>` that holds the choice (the reminder's GET form). */
export const reminderParam = 'remind';
export const defaultReminder: ReminderChoice = 0;
export const minuteMs = 60_000;

export function parseReminderChoice(value: unknown): ReminderChoice {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return (reminderChoices as readonly number[]).includes(number) ? (number as ReminderChoice) : defaultReminder;
}

/** This browser's localStorage, or null where there is none or it is refused. */
export const reminderStore = (): Storage | null => webStorage('localStorage');

export function readReminderChoice(storage: Pick<Storage, 'getItem'> | null | undefined): ReminderChoice {
  try {
    return parseReminderChoice(storage?.getItem(reminderStorageKey));
  } catch {
    return defaultReminder;
  }
}

export function saveReminderChoice(storage: Pick<Storage, 'setItem'> | null | undefined, choice: ReminderChoice): void {
  try {
    storage?.setItem(reminderStorageKey, String(choice));
  } catch {
    // The choice lasts for this page only.
  }
}

export function minutesPlayed(startedAt: number, now: number, minute = minuteMs): number {
  return Math.max(0, Math.floor((now - startedAt) / minute));
}

/** To the next whole multiple of the interval after the start; one due now is a whole interval away. */
export function nextReminderDelay(startedAt: number, now: number, intervalMs: number): number {
  if (intervalMs <= 0) throw new RangeError('the interval must be positive');
  const elapsed = now - startedAt;
  // A start still ahead (the browser's clock is behind the server's): the first one after it.
  if (elapsed < 0) return intervalMs - elapsed;
  const passed = Math.floor(elapsed / intervalMs);
  return (passed + 1) * intervalMs - elapsed;
}

export interface ReminderTimers {
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface ScheduleOptions {
  startedAt: number;
  everyMinutes: number;
  /** The length of a minute (tests and demos shorten it). */
  minute?: number;
  onDue: (minutes: number) => void;
  timers?: ReminderTimers;
}

const realTimers: ReminderTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Starts the reminders; returns the function that stops them. One timer at a time. */
export function scheduleReminders({
  startedAt,
  everyMinutes,
  minute = minuteMs,
  onDue,
  timers = realTimers,
}: ScheduleOptions): () => void {
  if (everyMinutes <= 0) return () => undefined;
  const intervalMs = everyMinutes * minute;
  let handle: unknown;
  let stopped = false;
  const arm = () => {
    handle = timers.setTimeout(
      () => {
        if (stopped) return;
        // Rounded to the interval: a late timer (a sleeping laptop) still says "60", not "61".
        const played = minutesPlayed(startedAt, timers.now(), minute);
        onDue(Math.max(everyMinutes, Math.round(played / everyMinutes) * everyMinutes));
        arm();
      },
      nextReminderDelay(startedAt, timers.now(), intervalMs),
    );
  };
  arm();
  return () => {
    stopped = true;
    timers.clearTimeout(handle);
  };
}
