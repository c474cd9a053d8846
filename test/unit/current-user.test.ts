import t from 'tap';
import {
  createCurrentUserStore,
  retryDelay,
  type CurrentUserData,
  type StoreEvents,
} from '../../client/lib/current-user.ts';

// The current-user store (client/lib/current-user.ts) with a fake clock, timers and window.
function setup() {
  let clock = 1_000_000;
  const timers: { at: number; fn: () => void }[] = [];
  const handlers = new Map<string, Set<() => void>>();
  let visible = true;
  const events: StoreEvents = {
    addEventListener: (type, fn) => void (handlers.get(type) ?? handlers.set(type, new Set()).get(type)!).add(fn),
    removeEventListener: (type, fn) => void handlers.get(type)?.delete(fn),
    visible: () => visible,
  };
  const answers: (CurrentUserData | Error)[] = [];
  let calls = 0;
  const pending: (() => void)[] = [];
  const store = createCurrentUserStore({
    now: () => clock,
    schedule: (fn, ms) => timers.push({ at: clock + ms, fn }),
    events,
    fetch: () => {
      calls += 1;
      const answer = answers.shift() ?? { user: null };
      return new Promise((resolve, reject) =>
        pending.push(() => (answer instanceof Error ? reject(answer) : resolve(answer))),
      );
    },
  });
  return {
    store,
    answers,
    calls: () => calls,
    advance: (ms: number) => {
      clock += ms;
    },
    /** Answer the requests in flight and let their promises settle. */
    settle: async () => {
      while (pending.length) pending.shift()!();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    fire: (type: string) => handlers.get(type)?.forEach((fn) => fn()),
    listening: (type: string) => handlers.get(type)?.size ?? 0,
    hide: (hidden: boolean) => {
      visible = !hidden;
    },
    runTimers: () => {
      const due = timers.filter((timer) => timer.at <= clock);
      timers.splice(0, timers.length, ...timers.filter((timer) => timer.at > clock));
      due.forEach((timer) => timer.fn());
      return due.length;
    },
  };
}

const ada = { user: { id: 'u1', name: 'Ada', email: 'ada@example.com' } } as unknown as CurrentUserData;
const nobody: CurrentUserData = { user: null };

t.test('the server-rendered user is shown without a request, and counts as fresh for 5 s', async (t) => {
  const s = setup();
  s.store.subscribe(() => {});
  s.store.seed(ada);
  t.equal(s.store.getSnapshot(), ada);
  await s.store.revalidate();
  t.equal(s.calls(), 0, 'hydration does not ask the API again');
  s.advance(5_001);
  void s.store.revalidate();
  t.equal(s.calls(), 1, 'a component mounting after 5 s does');
});

t.test('login and logout (new root loader data) show at once, and subscribers hear it', async (t) => {
  const s = setup();
  let heard = 0;
  s.store.subscribe(() => (heard += 1));
  s.store.seed(nobody);
  s.store.seed(ada);
  t.equal(s.store.getSnapshot()?.user, ada.user, 'after login: the user, no reload');
  s.store.seed(nobody);
  t.equal(s.store.getSnapshot()?.user, null, 'after logout: nobody');
  s.store.seed(nobody);
  t.equal(heard, 3, 'seeding the same data again changes nothing');
  t.equal(s.calls(), 0);
  void s.store.revalidate();
  t.equal(s.calls(), 1, "data seeded after hydration (the browser's own session) is asked for again on the next mount");
});

t.test('returning to the tab asks again (at most once per 5 s); logging out elsewhere shows', async (t) => {
  const s = setup();
  s.store.subscribe(() => {});
  s.store.seed(ada);
  s.advance(1_000);
  s.fire('focus');
  t.equal(s.calls(), 0, 'no focus revalidation within 5 s of mounting');
  s.advance(5_000);
  s.answers.push(nobody);
  s.fire('focus');
  s.fire('visibilitychange');
  t.equal(s.calls(), 1, 'one request for focus + visibilitychange');
  await s.settle();
  t.equal(s.store.getSnapshot()?.user, null, 'the logout in another tab shows here');
  s.advance(6_000);
  s.hide(true);
  s.fire('visibilitychange');
  t.equal(s.calls(), 1, 'hiding the tab is not a return to it');
});

t.test('coming back online asks again; concurrent asks share one request', async (t) => {
  const s = setup();
  s.store.subscribe(() => {});
  s.store.seed(ada);
  s.advance(6_000);
  s.fire('online');
  s.fire('online');
  void s.store.revalidate();
  t.equal(s.calls(), 1, 'deduplicated');
  await s.settle();
  s.fire('online');
  t.equal(s.calls(), 1, 'fresh after the answer');
});

t.test('failures keep the user shown and are retried 3 times with back-off; 4xx are not', async (t) => {
  t.same([0, 1, 2, 3, 10].map(retryDelay), [1_000, 2_000, 4_000, 8_000, 30_000]);
  const s = setup();
  s.store.subscribe(() => {});
  s.store.seed(ada);
  s.advance(6_000);
  s.answers.push(new Error('network'), new Error('network'), new Error('network'), new Error('network'));
  void s.store.revalidate();
  await s.settle();
  t.equal(s.store.getSnapshot(), ada, 'still shown after a failure');
  for (const delay of [1_000, 2_000, 4_000]) {
    s.advance(delay - 1);
    t.equal(s.runTimers(), 0, `not before ${delay} ms`);
    s.advance(1);
    t.equal(s.runTimers(), 1, `retried after ${delay} ms`);
    await s.settle();
  }
  t.equal(s.calls(), 4, 'first try + 3 retries');
  s.advance(60_000);
  t.equal(s.runTimers(), 0, 'no fourth retry');

  const c = setup();
  c.store.subscribe(() => {});
  c.store.seed(ada);
  c.advance(6_000);
  c.answers.push(Object.assign(new Error('forbidden'), { statusCode: 403 }));
  void c.store.revalidate();
  await c.settle();
  c.advance(60_000);
  t.equal(c.runTimers(), 0, 'a 4xx is not retried');
});

t.test('window listeners exist only while something shows the user', async (t) => {
  const s = setup();
  const stopA = s.store.subscribe(() => {});
  const stopB = s.store.subscribe(() => {});
  t.equal(s.listening('focus'), 1);
  stopA();
  t.equal(s.listening('online'), 1);
  stopB();
  t.equal(s.listening('focus') + s.listening('online') + s.listening('visibilitychange'), 0);
});
