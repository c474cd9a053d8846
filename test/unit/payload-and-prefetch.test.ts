import { mock } from 'node:test';
import { Window } from 'happy-dom';
import pLimit from 'p-limit';
import t from 'tap';

// client/router/payload.ts: the answers loaders, prefetch and the live hook share for FRESH_MS; the
// requests go through the API client (ofetch) to a fetch the test answers.

const window = new Window({ url: 'http://localhost/' });
Object.assign(window, { requestAnimationFrame: undefined });
Object.assign(globalThis, { window, document: window.document, IS_REACT_ACT_ENVIRONMENT: true });
Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true });

interface Call {
  url: string;
  resolve: (body: unknown, status?: number) => void;
}

const calls: Call[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (input: string | URL | Request) =>
  new Promise<Response>((resolve) => {
    calls.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      resolve: (body, status = 200) =>
        resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
    });
  });
t.teardown(() => {
  globalThis.fetch = realFetch;
});

const { act, createElement: h, useState } = await import('react');
const { createRoot } = await import('react-dom/client');
const { SWRConfig } = await import('swr');
const swr = await import('../../client/lib/swr-config.ts');
const { fetchPayload, forgetPageData, pageData, payloadUrl, prefetchPayload } =
  await import('../../client/router/payload.ts');
const { pageAt } = await import('../../client/router/prefetch.ts');
const { createRouteObjects } = await import('../../client/router/route-objects.tsx');
const { nestToc } = await import('../../client/components/table-of-contents.tsx');
const { pageWindow } = await import('../../client/pages/article-list.tsx');
// In place before the first payload, as in the browser once one was asked for.
await import('../../client/lib/api-client.ts');

/** Resolves once `done()` holds, letting the requests, imports and SWR's writes run in between. */
async function until(done: () => boolean, what = 'the condition') {
  for (let round = 0; round < 2_000; round++) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const settled = () => until(() => true).then(() => new Promise((resolve) => setImmediate(resolve)));
const answer = (index: number, data: unknown, status = 200) =>
  calls[index]!.resolve(status === 200 ? { buildId: 'b', data } : data, status);

/** The root's SWRConfig, fresh for each test: its cache is the one every call below uses. */
let unmount: () => Promise<void> = async () => undefined;
function Bind() {
  swr.useBindRootCache();
  return null;
}
async function mountRoot(...children: ReturnType<typeof h>[]) {
  const root = createRoot(window.document.createElement('div') as unknown as Element);
  await act(async () => root.render(h(SWRConfig, { value: swr.swrConfig }, h(Bind), ...children)));
  unmount = () => act(async () => root.unmount());
}

t.beforeEach(async () => {
  calls.length = 0;
  forgetPageData();
  mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
  const mocked = globalThis.setTimeout;
  globalThis.setTimeout = ((run: () => void, delay?: unknown, ...rest: unknown[]) =>
    mocked(run, typeof delay === 'number' ? delay : 0, ...rest)) as typeof setTimeout;
  await mountRoot();
});
t.afterEach(async () => {
  await unmount();
  mock.timers.reset();
});

const run = pLimit(5);

t.test('payload URLs', async (t) => {
  t.equal(payloadUrl('/'), '/_payload.json');
  t.equal(payloadUrl('/th'), '/th/_payload.json');
  t.equal(payloadUrl('/asdas/x/'), '/asdas/x/_payload.json');
});

t.test('a finished prefetch is used by the navigation: one request', async (t) => {
  const prefetched = prefetchPayload('/bonus', run);
  await until(() => calls.length === 1, 'the prefetch');
  t.equal(calls[0]!.url, '/bonus/_payload.json');
  answer(0, { page: 'bonus' });
  await prefetched;
  t.same(await fetchPayload('/bonus'), { page: 'bonus' });
  t.equal(calls.length, 1, 'no second request');
});

t.test('a prefetch still in flight is joined, not repeated', async (t) => {
  void prefetchPayload('/bonus', run);
  await until(() => calls.length === 1);
  const navigation = fetchPayload('/bonus/');
  await settled();
  t.equal(calls.length, 1);
  answer(0, { page: 'bonus' });
  t.same(await navigation, { page: 'bonus' });
});

t.test('an answer stands in for 5,000 ms; then a visit asks again', async (t) => {
  void prefetchPayload('/bonus', run);
  await until(() => calls.length === 1);
  answer(0, 1);
  t.equal(await fetchPayload('/bonus'), 1);
  mock.timers.tick(swr.FRESH_MS - 1);
  t.equal(await fetchPayload('/bonus'), 1, 'still fresh');
  mock.timers.tick(2);
  const again = fetchPayload('/bonus');
  await until(() => calls.length === 2, 'a new request');
  answer(1, 2);
  t.equal(await again, 2);
});

t.test('a query-only change of the page just shown reuses its payload, and is not prefetched again', async (t) => {
  const first = fetchPayload('/asdas');
  await until(() => calls.length === 1);
  answer(0, 'list');
  t.equal(await first, 'list');
  t.equal(await fetchPayload('/asdas'), 'list');
  await prefetchPayload('/asdas', run);
  t.equal(calls.length, 1);
});

t.test('an error answer is the page error and is not kept; nor is a redirect', async (t) => {
  const gone = { statusCode: 404, message: 'Page not found: /gone', fatal: false };
  void prefetchPayload('/gone', run);
  await until(() => calls.length === 1);
  answer(0, gone, 404);
  await settled();
  const navigation = fetchPayload('/gone');
  await until(() => calls.length === 2, 'the navigation asking itself');
  answer(1, gone, 404);
  const error = await navigation.catch((caught: unknown) => caught);
  t.equal((error as { init: { status: number } }).init.status, 404, 'thrown as the page error, with its status');
  t.same((error as { data: unknown }).data, gone);

  const account = fetchPayload('/account');
  await until(() => calls.length === 3);
  calls[2]!.resolve({ redirect: '/login?redirect=%2Faccount' });
  const thrown = await account.catch((caught: unknown) => caught);
  t.equal((thrown as Response).headers.get('location'), '/login?redirect=%2Faccount', "react-router's redirect");
  void fetchPayload('/account').catch(() => undefined);
  await until(() => calls.length === 4, 'a redirect asks again');
  calls[3]!.resolve({ redirect: '/login' });
});

t.test('a cancelled navigation leaves the request it joined for the next one', async (t) => {
  void prefetchPayload('/bonus', run);
  await until(() => calls.length === 1);
  const controller = new AbortController();
  const cancelled = fetchPayload('/bonus', controller.signal);
  controller.abort();
  await t.rejects(cancelled);
  answer(0, 'bonus');
  t.equal(await fetchPayload('/bonus'), 'bonus');
  t.equal(calls.length, 1);
});

t.test("a click while its prefetch is still queued: one request, the navigation's", async (t) => {
  // Issue 29: the slots are busy, the link's prefetch waits; the click asks itself; the prefetch,
  // started when a slot frees (or asked again by the focus the click gives), joins that request.
  const limited = pLimit(1);
  void prefetchPayload('/busy', limited);
  const queuedPrefetch = prefetchPayload('/bonus', limited);
  await until(() => calls.length === 1);
  const navigation = fetchPayload('/bonus');
  await until(() => calls.length === 2, 'the navigation, not waiting for the queue');
  t.same(
    calls.map((call) => call.url),
    ['/busy/_payload.json', '/bonus/_payload.json'],
  );
  answer(0, 'busy');
  await queuedPrefetch;
  await prefetchPayload('/bonus', run);
  await settled();
  t.equal(calls.length, 2, 'neither the queued prefetch nor a new one asks again while the navigation does');
  answer(1, 'bonus');
  t.equal(await navigation, 'bonus');
  await prefetchPayload('/bonus', run);
  t.equal(calls.length, 2, 'nor right after it');
});

t.test('prefetches share the limit and a path is asked for once', async (t) => {
  const limited = pLimit(2);
  const all = ['/a', '/b', '/c', '/d', '/a', '/b', '/c'].map((path) => prefetchPayload(path, limited));
  await until(() => calls.length === 2);
  await settled();
  t.equal(calls.length, 2, 'two at a time');
  answer(0, 'a');
  answer(1, 'b');
  await until(() => calls.length === 4);
  answer(2, 'c');
  answer(3, 'd');
  await Promise.all(all);
  t.same(
    calls.map((call) => call.url),
    ['/a/_payload.json', '/b/_payload.json', '/c/_payload.json', '/d/_payload.json'],
    'each path once',
  );
});

t.test("a form's success forgets every page's data: the next load asks", async (t) => {
  const first = fetchPayload('/bonus');
  await until(() => calls.length === 1);
  answer(0, 'before');
  t.equal(await first, 'before');
  forgetPageData();
  const after = fetchPayload('/bonus');
  await until(() => calls.length === 2);
  answer(1, 'after');
  t.equal(await after, 'after');
});

t.test("the live hook (useLivePageData) revalidates through the same answer as the page's loader", async (t) => {
  await unmount();
  const key = payloadUrl('/account');
  const shown: string[] = [];
  function Live() {
    const [seed] = useState({ sessions: 'from the server' });
    const fetcher = pageData as (key: string) => Promise<typeof seed>;
    shown.push(swr.useSeededSWR(key, fetcher, seed).sessions);
    return null;
  }
  await mountRoot(h(Live));
  await settled();
  t.equal(calls.length, 0, 'hydration asks nothing');
  mock.timers.tick(swr.FRESH_MS + 1);
  await act(async () => {
    window.dispatchEvent(new window.Event('focus'));
  });
  await act(async () => mock.timers.tick(1));
  await until(() => calls.length === 1, 'a return to the tab after 5 s');
  const navigation = fetchPayload('/account');
  await settled();
  t.equal(calls.length, 1, 'a navigation to the page meanwhile joins that request');
  await act(async () => answer(0, { sessions: 'from the payload' }));
  t.same(await navigation, { sessions: 'from the payload' });
  await act(settled);
  t.equal(shown.at(-1), 'from the payload', 'the hook shows the answer');
});

t.test('the page a path opens, for prefetch, as the router matches it', async (t) => {
  const routes = createRouteObjects({});
  const pageRouteFor = (pathname: string) => pageAt(pathname, routes);
  t.equal(pageRouteFor('/')?.route.id, 'home');
  t.equal(pageRouteFor('/th')?.route.id, 'home');
  t.equal(pageRouteFor('/th/asdas')?.route.id, 'articles');
  t.same(pageRouteFor('/asdas/rtp-explained')?.params, { slug: 'rtp-explained' });
  t.equal(pageRouteFor('/th/asdas/rtp-explained')?.route.id, 'article');
  t.equal(pageRouteFor('/registration')?.route.id, 'registration');
  t.equal(pageRouteFor('/author/nicha-srisuk')?.route.id, 'content');
  t.equal(pageRouteFor('/thai-food')?.route.id, 'content', '/thai-food is not under /th');
});

t.test('nested ToC and pagination windows', async (t) => {
  t.same(
    nestToc([
      { id: 'a', text: 'A', level: 3 },
      { id: 'b', text: 'B', level: 2 },
      { id: 'c', text: 'C', level: 3 },
      { id: 'd', text: 'D', level: 2 },
    ]).map((node) => [node.id, node.children.map((child) => child.id)]),
    [
      ['a', []],
      ['b', ['c']],
      ['d', []],
    ],
  );
  t.same(pageWindow(1, 1), [1]);
  t.same(pageWindow(1, 3), [1, 2, 3]);
  t.same(pageWindow(6, 12), [1, null, 4, 5, 6, 7, 8, null, 12]);
  t.same(pageWindow(1, 12), [1, 2, 3, null, 12]);
});
