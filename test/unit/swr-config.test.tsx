import { mock } from 'node:test';
import { Window } from 'happy-dom';
import t from 'tap';

// client/lib/swr-config.ts: the spec's data rules as SWR runs them, with React and SWR for real in
// a happy-dom window and the clock (Date and timers) under the test's hand.

const window = new Window({ url: 'http://localhost/' });
// SWR schedules its mount revalidation with requestAnimationFrame when there is one: a timer instead.
Object.assign(window, { requestAnimationFrame: undefined });
Object.assign(globalThis, { window, document: window.document, IS_REACT_ACT_ENVIRONMENT: true });
// Node 21 and later have a navigator of their own (a getter): replaced, not assigned.
Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true });

const { act, createElement: h, useState } = await import('react');
const { createRoot } = await import('react-dom/client');
const { SWRConfig, default: useSWR, useSWRConfig } = await import('swr');
const { FRESH_MS, UNUSED_MS, UnusedDroppingCache, retryDelay, swrConfig, useSeededSWR } =
  await import('../../client/lib/swr-config.ts');

type Answer = () => Promise<unknown>;

/** A fetcher that counts its calls and answers as told (at once, by default). */
function countingFetcher(answer: Answer = async () => 'data') {
  const calls: number[] = [];
  const fetcher = (_key: string) => {
    calls.push(Date.now());
    return answer();
  };
  return { calls, fetcher };
}

function failing(statusCode: number): Answer {
  return () => Promise.reject(Object.assign(new Error(`HTTP ${statusCode}`), { statusCode }));
}

/** Mounts `probes` hooks on key `/k` under the root's SWRConfig; each can be added later. */
async function mount(fetcher: (key: string) => Promise<unknown>) {
  let addProbe: () => void = () => undefined;
  let removeAll: () => void = () => undefined;
  let cache: unknown;
  function Probe() {
    useSWR('/k', fetcher);
    return null;
  }
  function CacheProbe() {
    cache = useSWRConfig().cache;
    return null;
  }
  function Probes() {
    const [count, setCount] = useState(1);
    addProbe = () => setCount((n) => n + 1);
    removeAll = () => setCount(0);
    return h('div', null, ...Array.from({ length: count }, (_, index) => h(Probe, { key: index })));
  }
  const root = createRoot(window.document.createElement('div') as unknown as Element);
  await act(async () => {
    root.render(h(SWRConfig, { value: swrConfig }, h(CacheProbe), h(Probes)));
  });
  await advance(10);
  return {
    add: () => act(async () => addProbe()),
    removeAll: () => act(async () => removeAll()),
    cache: () => cache as InstanceType<typeof UnusedDroppingCache>,
    unmount: () => act(async () => root.unmount()),
  };
}

/** Moves the clock on, running what falls due and the promises it settles. */
async function advance(ms: number) {
  await act(async () => {
    mock.timers.tick(ms);
    for (let round = 0; round < 5; round++) await Promise.resolve();
  });
}

/** The window gets focus; SWR handles it on a timer of 0 ms. */
async function focus() {
  await act(async () => {
    window.dispatchEvent(new window.Event('focus'));
  });
  await advance(1);
}

t.beforeEach(() => {
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
  // SWR passes the focus event itself as the delay (setTimeout.bind): a browser counts a delay that
  // is not a number as 0, the mocked timer as never.
  const mocked = globalThis.setTimeout;
  globalThis.setTimeout = ((run: () => void, delay?: unknown, ...rest: unknown[]) =>
    mocked(run, typeof delay === 'number' ? delay : 0, ...rest)) as typeof setTimeout;
});
t.afterEach(() => {
  mock.timers.reset();
});

t.test('data is fresh for 5,000 ms: a hook mounting within it asks nothing, after it asks', async (t) => {
  const { calls, fetcher } = countingFetcher();
  const probes = await mount(fetcher);
  t.equal(calls.length, 1, 'the first hook asks');
  await advance(FRESH_MS - 100);
  await probes.add();
  await advance(10);
  t.equal(calls.length, 1, 'a second hook 4,900 ms later is answered from the cache');
  await advance(200);
  await probes.add();
  await advance(10);
  t.equal(calls.length, 2, 'a third hook after 5,000 ms asks again');
  await probes.unmount();
});

t.test('returning to the tab asks again only once the data is 5,000 ms old', async (t) => {
  const { calls, fetcher } = countingFetcher();
  const probes = await mount(fetcher);
  await advance(1_000);
  await focus();
  t.equal(calls.length, 1, 'focus 1 s after the answer: nothing asked');
  await advance(FRESH_MS + 100);
  await focus();
  t.equal(calls.length, 2, 'focus after 5 s asks');
  await probes.unmount();
});

t.test('a failed fetch is retried 3 times, after 1, 2 and 4 s, and then left', async (t) => {
  const { calls, fetcher } = countingFetcher(failing(503));
  const probes = await mount(fetcher);
  await advance(980);
  t.equal(calls.length, 1, 'no retry before 1 s');
  for (let step = 0; step < 7_000; step += 10) await advance(10);
  // Each wait runs from the failure, which settles just after its call.
  const gaps = calls.slice(1).map((at, index) => at - calls[index]!);
  t.equal(gaps.length, 3, 'the first try and three retries');
  t.ok(
    [1_000, 2_000, 4_000].every((delay, index) => gaps[index]! >= delay && gaps[index]! <= delay + 10),
    `1,000, 2,000 and 4,000 ms apart (${gaps.join(', ')})`,
  );
  await advance(120_000);
  t.equal(calls.length, 4, 'no fourth retry');
  t.same(
    [0, 1, 2, 3, 4, 5, 10].map(retryDelay),
    [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
    'capped at 30 s',
  );
  await probes.unmount();
});

t.test('a 4xx answer is never retried', async (t) => {
  for (const status of [400, 401, 404, 429]) {
    const { calls, fetcher } = countingFetcher(failing(status));
    const probes = await mount(fetcher);
    await advance(120_000);
    t.equal(calls.length, 1, `${status}: asked once`);
    await probes.unmount();
  }
});

t.test('a cache entry no hook has used for 5 minutes is dropped, a used one kept', async (t) => {
  const { fetcher } = countingFetcher();
  const probes = await mount(fetcher);
  t.ok(probes.cache() instanceof UnusedDroppingCache, "the root's cache is the dropping one");
  await advance(UNUSED_MS * 2);
  t.ok([...probes.cache().keys()].includes('/k'), 'kept past 5 minutes while a hook shows it');
  await probes.removeAll();
  await advance(UNUSED_MS - 1_000);
  t.ok([...probes.cache().keys()].includes('/k'), 'kept 4 min 59 s after its last hook went');
  await advance(2_000);
  t.notOk([...probes.cache().keys()].includes('/k'), 'dropped after 5 minutes unused');
  await probes.unmount();
});

t.test("a loader's data seeds a key: shown at once, fresh for 5,000 ms, then SWR's answer", async (t) => {
  const { calls, fetcher } = countingFetcher(async () => ({ name: 'from the API' }));
  const shown: string[] = [];
  let setSeed: (seed: { name: string }) => void = () => undefined;
  function Seeded() {
    const [seed, set] = useState({ name: 'from the server' });
    setSeed = set;
    const fetchName = fetcher as (key: string) => Promise<{ name: string }>;
    shown.push(useSeededSWR('/seeded', fetchName, seed).name);
    return null;
  }
  const root = createRoot(window.document.createElement('div') as unknown as Element);
  await act(async () => root.render(h(SWRConfig, { value: swrConfig }, h(Seeded))));
  await advance(10);
  t.equal(shown[0], 'from the server', 'the first render shows the seed (as the server rendered it)');
  t.equal(calls.length, 0, 'hydration asks nothing');
  await advance(1_000);
  await focus();
  t.equal(calls.length, 0, 'nor a return to the tab within 5 s');
  await advance(FRESH_MS);
  await focus();
  t.equal(calls.length, 1, 'after 5 s, a return asks');
  t.equal(shown.at(-1), 'from the API', "and shows the API's answer");
  await act(async () => setSeed({ name: 'a newer loader result' }));
  t.equal(shown.at(-1), 'a newer loader result', 'a newer seed wins over an older answer');
  await act(async () => root.unmount());
});
