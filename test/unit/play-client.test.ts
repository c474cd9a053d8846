import t from 'tap';
import { NavigationRefusedError } from '../../contract/navigation-guard.ts';
import {
  forgetLaunchChecks,
  launchProblemOf,
  startPlay,
  verifiedSession,
  verifyLaunch,
  type PlayDependencies,
} from '../../client/lib/play.ts';
import { loginForPlay } from '../../contract/login-path.ts';
import {
  minutesPlayed,
  nextReminderDelay,
  parseReminderChoice,
  readReminderChoice,
  reminderStorageKey,
  saveReminderChoice,
  scheduleReminders,
  type ReminderTimers,
} from '../../client/lib/play-reminder.ts';
import type { VerifiedLaunch } from '../../contract/play.ts';
import { playIntentKey, playIntentMaxAgeMs, rememberPlayIntent, takePlayIntent } from '../../client/lib/play-intent.ts';

/** An ofetch-like failure. */
function apiError(statusCode: number | undefined, data?: unknown): Error {
  return Object.assign(new Error(`status ${statusCode}`), { statusCode, data });
}

function deps(answer: () => Promise<{ url?: unknown }>, navigate?: PlayDependencies['navigate']) {
  const calls: { navigated: [string, unknown][]; requested: string[] } = { navigated: [], requested: [] };
  const dependencies: PlayDependencies = {
    request: (locale) => {
      calls.requested.push(locale);
      return answer();
    },
    navigate:
      navigate ??
      (async (to, options) => {
        calls.navigated.push([to, options]);
      }),
  };
  return { dependencies, calls };
}

t.test('loginForPlay: login with the way back to /play, locale-aware', async (t) => {
  t.equal(loginForPlay('en'), '/login?redirect=%2Fplay');
  t.equal(loginForPlay('th'), '/th/login?redirect=%2Fth%2Fplay');
});

t.test('startPlay follows the launch URL with external: true', async (t) => {
  const { dependencies, calls } = deps(async () => ({ url: 'https://play.example/go?launch=abc' }));
  t.same(await startPlay('th', dependencies), { kind: 'navigated' });
  t.same(calls.requested, ['th'], 'the page locale goes with the request');
  t.same(calls.navigated, [['https://play.example/go?launch=abc', { external: true }]]);
});

t.test('startPlay: a refused destination is an outcome, not a navigation', async (t) => {
  const refuse = () => {
    throw new NavigationRefusedError('origin-not-allowed', 'not on the list of allowed origins');
  };
  const { dependencies } = deps(async () => ({ url: 'https://evil.example/x' }), refuse);
  t.same(await startPlay('en', dependencies), { kind: 'refused', url: 'https://evil.example/x' });
  const rejecting = deps(
    async () => ({ url: 'javascript:alert(1)' }),
    async () => Promise.reject(new NavigationRefusedError('script-protocol', 'no')),
  );
  t.same(await startPlay('en', rejecting.dependencies), { kind: 'refused', url: 'javascript:alert(1)' });
});

t.test('startPlay: API failures', async (t) => {
  const until = '2026-03-08T10:00:00.000Z';
  const cases: [unknown, unknown][] = [
    [
      apiError(403, { statusCode: 403, code: 'PLAY_SELF_EXCLUDED', message: 'x', until }),
      { kind: 'self-excluded', until },
    ],
    [apiError(401, { statusCode: 401, code: 'UNAUTHENTICATED' }), { kind: 'login', to: '/login?redirect=%2Fplay' }],
    [apiError(429, { code: 'RATE_LIMITED' }), { kind: 'failed', code: 'RATE_LIMITED' }],
    [apiError(500, { code: 'INTERNAL' }), { kind: 'failed', code: 'INTERNAL' }],
    [apiError(502, '<html>bad gateway</html>'), { kind: 'failed', code: 'UNKNOWN' }],
    [apiError(undefined), { kind: 'failed', code: 'NETWORK' }],
    [apiError(403, { code: 'PLAY_SELF_EXCLUDED' }), { kind: 'failed', code: 'PLAY_SELF_EXCLUDED' }],
  ];
  for (const [error, expected] of cases) {
    const { dependencies, calls } = deps(async () => Promise.reject(error));
    t.same(await startPlay('en', dependencies), expected, JSON.stringify(expected));
    t.same(calls.navigated, [], 'went nowhere');
  }
  for (const body of [{}, { url: 42 }, { url: '' }]) {
    const { dependencies } = deps(async () => body);
    t.same(await startPlay('en', dependencies), { kind: 'failed', code: 'UNKNOWN' }, `answer ${JSON.stringify(body)}`);
  }
});

const launch: VerifiedLaunch = {
  valid: true,
  user: { id: 'u1', displayName: 'Ann' },
  session: { id: 's1', startedAt: '2026-03-01T10:00:00.000Z', locale: 'en' },
};

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

t.test('verifyLaunch: one request per token, however often it is asked (StrictMode, remounts)', async (t) => {
  forgetLaunchChecks();
  let requests = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const dependencies = {
    request: async () => {
      requests += 1;
      await gate;
      return launch;
    },
  };
  const first = verifyLaunch('tok-1', dependencies);
  const second = verifyLaunch('tok-1', dependencies);
  t.equal(first, second, 'the same promise while in flight');
  t.equal(verifiedSession(launch.session.id), undefined, 'nothing verified yet');
  release();
  t.same(await first, { kind: 'verified', launch });
  t.same(await verifyLaunch('tok-1', dependencies), { kind: 'verified', launch }, 'and after');
  t.equal(requests, 1);
  t.same(verifiedSession(launch.session.id), launch, 'the session is kept by id for `/play?session=<id>`');
});

t.test('verifyLaunch: failures carry the API code; the page turns spent tokens into `?problem=`', async (t) => {
  forgetLaunchChecks();
  for (const [code, status, problem] of [
    ['LAUNCH_TOKEN_USED', 409, 'used'],
    ['LAUNCH_TOKEN_EXPIRED', 410, 'expired'],
    ['LAUNCH_TOKEN_INVALID', 400, 'invalid'],
    ['LAUNCH_TOKEN_UNKNOWN', 404, 'unknown'],
    ['LAUNCH_TOKEN_FORBIDDEN', 403, 'foreign'],
  ] as const) {
    const result = await verifyLaunch(`tok-${code}`, {
      request: async () => Promise.reject(apiError(status, { statusCode: status, code })),
    });
    t.same(result, { kind: 'failed', code });
    t.equal(launchProblemOf(code), problem);
  }
  t.same(await verifyLaunch('tok-net', { request: async () => Promise.reject(apiError(undefined)) }), {
    kind: 'failed',
    code: 'NETWORK',
  });
  t.equal(launchProblemOf('NETWORK'), null, 'a token that was not spent stays (a reload tries again)');
  t.equal(launchProblemOf('RATE_LIMITED'), null);
});

// ------------------------------------------------------------------ session reminder

/** Timers that fire only when the test moves the clock. */
class FakeTimers implements ReminderTimers {
  time = 0;
  #id = 0;
  pending = new Map<number, { at: number; run: () => void }>();
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    this.#id += 1;
    this.pending.set(this.#id, { at: this.time + ms, run });
    return this.#id;
  };
  clearTimeout = (handle: unknown) => {
    this.pending.delete(handle as number);
  };
  advance(ms: number) {
    const target = this.time + ms;
    for (;;) {
      const next = [...this.pending].filter(([, timer]) => timer.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.pending.delete(next[0]);
      this.time = next[1].at;
      next[1].run();
    }
    this.time = target;
  }
}

const minute = 60_000;

t.test('reminder timing, pure', async (t) => {
  t.equal(nextReminderDelay(0, 0, 30 * minute), 30 * minute);
  t.equal(nextReminderDelay(0, 10 * minute, 30 * minute), 20 * minute, 'joined 10 minutes in');
  t.equal(
    nextReminderDelay(0, 30 * minute, 30 * minute),
    30 * minute,
    'exactly due: the next one is a full interval on',
  );
  t.equal(nextReminderDelay(0, 95 * minute, 60 * minute), 25 * minute);
  t.equal(nextReminderDelay(1000, 0, 60 * minute), 60 * minute + 1000, 'a start in the future counts from the start');
  t.throws(() => nextReminderDelay(0, 0, 0));
  t.equal(minutesPlayed(0, 59_999), 0);
  t.equal(minutesPlayed(0, 60 * minute), 60);
  t.equal(minutesPlayed(5000, 0), 0);
  t.equal(minutesPlayed(0, 90, 10), 9, 'a shortened minute');
});

t.test('reminders every 30 minutes, with fake timers', async (t) => {
  const timers = new FakeTimers();
  const due: number[] = [];
  const stop = scheduleReminders({ startedAt: 0, everyMinutes: 30, onDue: (m) => due.push(m), timers });
  timers.advance(29 * minute);
  t.same(due, [], 'nothing before 30 minutes');
  timers.advance(minute);
  t.same(due, [30]);
  timers.advance(60 * minute);
  t.same(due, [30, 60, 90]);
  t.equal(timers.pending.size, 1, 'one timer at a time');
  stop();
  t.equal(timers.pending.size, 0, 'stopped');
  timers.advance(120 * minute);
  t.same(due, [30, 60, 90]);
});

t.test('reminders: started earlier, off, a shortened minute, a late timer', async (t) => {
  const timers = new FakeTimers();
  timers.time = 45 * minute;
  const due: number[] = [];
  scheduleReminders({ startedAt: 0, everyMinutes: 60, onDue: (m) => due.push(m), timers });
  timers.advance(14 * minute);
  t.same(due, []);
  timers.advance(minute);
  t.same(due, [60], 'due at the hour of play, not an hour after opening the page');

  const off = new FakeTimers();
  const none: number[] = [];
  scheduleReminders({ startedAt: 0, everyMinutes: 0, onDue: (m) => none.push(m), timers: off });
  off.advance(600 * minute);
  t.same(none, []);
  t.equal(off.pending.size, 0, 'off sets no timer');

  const fast = new FakeTimers();
  const quick: number[] = [];
  scheduleReminders({ startedAt: 0, everyMinutes: 30, minute: 10, onDue: (m) => quick.push(m), timers: fast });
  fast.advance(600);
  t.same(quick, [30, 60], 'a 10 ms minute: reminders after 300 ms and 600 ms');

  // A laptop that slept: the timer fires 3 hours late; it reports the rounded time played.
  const late = new FakeTimers();
  const slept: number[] = [];
  scheduleReminders({
    startedAt: 0,
    everyMinutes: 60,
    onDue: (m) => slept.push(m),
    timers: {
      ...late,
      now: late.now,
      setTimeout: (run, ms) => late.setTimeout(run, ms),
      clearTimeout: late.clearTimeout,
    },
  });
  const [only] = [...late.pending.values()];
  late.time = 181 * minute;
  late.pending.clear();
  only!.run();
  t.same(slept, [180]);
});

t.test('the reminder choice in storage', async (t) => {
  t.equal(parseReminderChoice('30'), 30);
  t.equal(parseReminderChoice('60'), 60);
  t.equal(parseReminderChoice('0'), 0);
  for (const bad of ['45', '', null, undefined, '30abc', ' 30', 30])
    t.equal(parseReminderChoice(bad), 0, `${JSON.stringify(bad)} → off`);
  const storage = memoryStorage();
  t.equal(readReminderChoice(storage), 0, 'off by default');
  saveReminderChoice(storage, 60);
  t.equal(storage.map.get(reminderStorageKey), '60');
  t.equal(readReminderChoice(storage), 60);
  const throwing = {
    getItem: () => {
      throw new Error('denied');
    },
    setItem: () => {
      throw new Error('denied');
    },
  };
  t.equal(readReminderChoice(throwing), 0);
  t.doesNotThrow(() => saveReminderChoice(throwing, 30));
  t.equal(readReminderChoice(null), 0);
});

// ------------------------------------------------------------------ log in, then play

t.test('the "Play, then log in" mark: taken once, only when fresh; nothing else presses Play', async (t) => {
  const storage = memoryStorage();
  t.equal(takePlayIntent(storage, 1000), false, 'a plain visit: no mark, no Play');
  rememberPlayIntent(storage, 1000);
  t.equal(storage.map.get(playIntentKey), '1000');
  t.equal(takePlayIntent(storage, 2000), true, 'the arrival from Play presses it');
  t.equal(takePlayIntent(storage, 2001), false, 'once: a reload or a later visit does not');
  t.equal(storage.map.has(playIntentKey), false);

  rememberPlayIntent(storage, 0);
  t.equal(takePlayIntent(storage, playIntentMaxAgeMs + 1), false, 'an abandoned login does not play later');
  t.equal(storage.map.has(playIntentKey), false, 'and the stale mark is gone');
  storage.map.set(playIntentKey, 'nonsense');
  t.equal(takePlayIntent(storage, 0), false);
  rememberPlayIntent(storage, 5000);
  t.equal(takePlayIntent(storage, 4000), false, 'a mark from the future (a clock moved) is no mark');

  const throwing = {
    getItem: () => {
      throw new Error('denied');
    },
    setItem: () => {
      throw new Error('denied');
    },
    removeItem: () => {
      throw new Error('denied');
    },
  };
  t.doesNotThrow(() => rememberPlayIntent(throwing, 0));
  t.equal(takePlayIntent(throwing, 0), false, 'storage refused: the player presses Play after login');
  t.equal(takePlayIntent(null, 0), false);
});
