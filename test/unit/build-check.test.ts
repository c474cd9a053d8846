import t from 'tap';
import {
  BUILD_CHECK_INTERVAL_MS,
  fetchLatestBuild,
  latestUrl,
  parseBuildInfo,
  startBuildCheck,
  type BuildInfo,
} from '../../client/lib/build-check.ts';

/** A tiny fake scheduler: timers fire only when the test advances the clock. */
class FakeScheduler {
  now = 0;
  private nextId = 1;
  timers = new Map<number, { at: number; fn: () => void }>();
  setTimer = (fn: () => void, ms: number): number => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  };
  clearTimer = (id: number): void => {
    this.timers.delete(id);
  };
  get pending(): number {
    return this.timers.size;
  }
  /** Advance the clock, firing due timers in order and letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) {
        if (entry[1].at <= target && (!due || entry[1].at < due[1].at)) due = entry;
      }
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
      await settle();
    }
    this.now = target;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
};

const HOUR = 3_600_000;

function setup(responses: unknown[], currentId = 'build-a') {
  const s = new FakeScheduler();
  const calls: number[] = [];
  const outdated: BuildInfo[] = [];
  const errors: unknown[] = [];
  let i = 0;
  const stop = startBuildCheck<number>({
    currentId,
    fetchLatest: async () => {
      calls.push(s.now);
      const r = responses[Math.min(i++, responses.length - 1)];
      if (r instanceof Error) throw r;
      return r as BuildInfo;
    },
    onOutdated: (latest) => outdated.push(latest),
    onError: (e) => errors.push(e),
    setTimer: s.setTimer,
    clearTimer: s.clearTimer,
  });
  return { s, calls, outdated, errors, stop };
}

t.test('constants and URL', async (t) => {
  t.equal(BUILD_CHECK_INTERVAL_MS, 3_600_000);
  t.equal(latestUrl(1_700_000_000_123), '/builds/latest.json?1700000000123');
  t.equal(latestUrl(5, '/base/builds/latest.json'), '/base/builds/latest.json?5');
  t.not(latestUrl(1), latestUrl(2), 'a different query each time');
});

t.test('first check after the interval, not at load', async (t) => {
  const { s, calls } = setup([{ id: 'build-a', timestamp: 1 }]);
  await s.advance(0);
  t.same(calls, [], 'nothing at load');
  await s.advance(HOUR - 1);
  t.same(calls, [], 'nothing 1 ms before the interval');
  await s.advance(1);
  t.same(calls, [HOUR], 'first check exactly at 3600000 ms');
});

t.test('same id keeps polling every interval', async (t) => {
  const { s, calls, outdated } = setup([{ id: 'build-a', timestamp: 1 }]);
  await s.advance(HOUR * 3);
  t.same(calls, [HOUR, 2 * HOUR, 3 * HOUR]);
  t.same(outdated, []);
  t.equal(s.pending, 1, 'next check scheduled');
});

t.test('a new id calls onOutdated once and stops polling', async (t) => {
  const latest = { id: 'build-b', timestamp: 1_700_000_000_000 };
  const { s, calls, outdated } = setup([{ id: 'build-a', timestamp: 1 }, latest]);
  await s.advance(HOUR * 2);
  t.same(outdated, [latest]);
  t.equal(s.pending, 0, 'no timer left');
  await s.advance(HOUR * 5);
  t.same(calls, [HOUR, 2 * HOUR], 'no more checks');
  t.equal(outdated.length, 1);
});

t.test('a failed check is ignored and polling goes on', async (t) => {
  const { s, calls, outdated, errors } = setup([
    new Error('offline'),
    null,
    { id: '', timestamp: 1 },
    { id: 'build-a' },
    { id: 'build-a', timestamp: 2 },
    { id: 'build-c', timestamp: 3 },
  ]);
  await s.advance(HOUR * 4);
  t.same(calls, [HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR]);
  t.equal(errors.length, 4, 'network error and three malformed answers reported');
  t.same(outdated, []);
  await s.advance(HOUR * 2);
  t.same(outdated, [{ id: 'build-c', timestamp: 3 }]);
  t.equal(calls.length, 6);
});

t.test('a slow check does not overlap with the next one', async (t) => {
  const s = new FakeScheduler();
  let resolve!: (v: BuildInfo) => void;
  let calls = 0;
  const stop = startBuildCheck<number>({
    currentId: 'a',
    intervalMs: 1000,
    fetchLatest: () => {
      calls++;
      return new Promise<BuildInfo>((r) => (resolve = r));
    },
    onOutdated: () => t.fail('not outdated'),
    setTimer: s.setTimer,
    clearTimer: s.clearTimer,
  });
  await s.advance(1000);
  t.equal(calls, 1);
  await s.advance(5000);
  t.equal(calls, 1, 'no second request while the first is pending');
  resolve({ id: 'a', timestamp: 1 });
  await settle();
  await s.advance(1000);
  t.equal(calls, 2, 'next check one interval after the answer');
  stop();
});

t.test('stop() cancels the timer and a check in flight', async (t) => {
  const { s, calls, stop } = setup([{ id: 'build-a', timestamp: 1 }]);
  await s.advance(HOUR);
  stop();
  t.equal(s.pending, 0);
  await s.advance(HOUR * 3);
  t.same(calls, [HOUR]);

  const s2 = new FakeScheduler();
  let resolve!: (v: BuildInfo) => void;
  const outdated: BuildInfo[] = [];
  const stop2 = startBuildCheck<number>({
    currentId: 'a',
    intervalMs: 10,
    fetchLatest: () => new Promise<BuildInfo>((r) => (resolve = r)),
    onOutdated: (l) => outdated.push(l),
    setTimer: s2.setTimer,
    clearTimer: s2.clearTimer,
  });
  await s2.advance(10);
  stop2();
  resolve({ id: 'b', timestamp: 1 });
  await settle();
  t.same(outdated, [], 'stopped before the answer arrived');
  t.equal(s2.pending, 0);
  stop2(); // idempotent
});

t.test('invalid interval is refused', async (t) => {
  const base = { currentId: 'a', fetchLatest: async () => ({ id: 'a', timestamp: 1 }), onOutdated: () => {} };
  t.throws(() => startBuildCheck({ ...base, intervalMs: 0 }), RangeError);
  t.throws(() => startBuildCheck({ ...base, intervalMs: -5 }), RangeError);
  t.throws(() => startBuildCheck({ ...base, intervalMs: Number.NaN }), RangeError);
});

t.test('works with the real global timers', async (t) => {
  const outdated: BuildInfo[] = [];
  const started = performance.now();
  await new Promise<void>((done) => {
    startBuildCheck({
      currentId: 'a',
      intervalMs: 200,
      fetchLatest: async () => ({ id: 'b', timestamp: 2 }),
      onOutdated: (l) => {
        outdated.push(l);
        done();
      },
    });
    t.same(outdated, [], 'nothing is checked at start');
  });
  t.same(outdated, [{ id: 'b', timestamp: 2 }]);
  // Room below the interval: the timer counts from the event loop's last clock read, which a
  // preempted process took before `started`; a check that did not wait answers within a few ms.
  const waited = performance.now() - started;
  t.ok(waited >= 100, `waited for the interval (${Math.round(waited)} ms of 200)`);
});

t.test('parseBuildInfo', async (t) => {
  t.same(parseBuildInfo({ id: 'x', timestamp: 1, extra: 2 }), { id: 'x', timestamp: 1 });
  t.equal(parseBuildInfo({ id: 'x' }), null);
  t.equal(parseBuildInfo({ id: 1, timestamp: 1 }), null);
  t.equal(parseBuildInfo({ id: 'x', timestamp: Number.POSITIVE_INFINITY }), null);
  t.equal(parseBuildInfo('x'), null);
  t.equal(parseBuildInfo(null), null);
});

t.test('fetchLatestBuild', async (t) => {
  const seen: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fakeFetch = (body: unknown, status = 200) =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), init });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;

  const info = await fetchLatestBuild({ fetch: fakeFetch({ id: 'b1', timestamp: 9 }), now: () => 1234 });
  t.same(info, { id: 'b1', timestamp: 9 });
  t.equal(seen[0]!.url, '/builds/latest.json?1234');
  t.equal(seen[0]!.init?.cache, 'no-store');
  await t.rejects(fetchLatestBuild({ fetch: fakeFetch({ id: 'b1', timestamp: 9 }, 503), now: () => 1 }), /503/);
  await t.rejects(fetchLatestBuild({ fetch: fakeFetch({ nope: true }), now: () => 1 }), /malformed/);
});
