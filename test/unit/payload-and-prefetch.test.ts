import t from 'tap';
import { nestToc } from '../../client/components/table-of-contents.tsx';
import pLimit from 'p-limit';
import { pageWindow } from '../../client/pages/article-list.tsx';
import {
  clearPayloadCache,
  fetchPayload,
  payloadFreshMs,
  payloadUrl,
  prefetchPayload,
} from '../../client/router/payload.ts';
import { pageRouteFor } from '../../client/router/prefetch.ts';

// The client's payload cache: a prefetched payload is used by the navigation that follows.
interface Call {
  url: string;
  resolve: (body: unknown, status?: number) => void;
}

const calls: Call[] = [];
const realFetch = globalThis.fetch;
const realNow = Date.now;
let clock = 1_000_000;

t.beforeEach(() => {
  calls.length = 0;
  clearPayloadCache();
  clock = 1_000_000;
  Date.now = () => clock;
  globalThis.fetch = ((url: string) =>
    new Promise<Response>((resolve) => {
      calls.push({
        url,
        resolve: (body, status = 200) =>
          resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
      });
    })) as typeof fetch;
});
t.teardown(() => {
  globalThis.fetch = realFetch;
  Date.now = realNow;
});

const run = pLimit(5);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const answer = (index: number, data: unknown, status = 200) =>
  calls[index]!.resolve(status === 200 ? { buildId: 'b', data } : data, status);

t.test('payload URLs', async (t) => {
  t.equal(payloadUrl('/'), '/_payload.json');
  t.equal(payloadUrl('/th'), '/th/_payload.json');
  t.equal(payloadUrl('/asdas/x/'), '/asdas/x/_payload.json');
});

t.test('a finished prefetch is used by the navigation: one request', async (t) => {
  const prefetched = prefetchPayload('/bonus', run);
  await flush();
  t.equal(calls.length, 1);
  answer(0, { page: 'bonus' });
  await prefetched;
  t.same(await fetchPayload('/bonus'), { page: 'bonus' });
  t.equal(calls.length, 1, 'no second request');
});

t.test('a prefetch still in flight is awaited, not repeated', async (t) => {
  void prefetchPayload('/bonus', run);
  await flush();
  const navigation = fetchPayload('/bonus/');
  await flush();
  t.equal(calls.length, 1);
  answer(0, { page: 'bonus' });
  t.same(await navigation, { page: 'bonus' });
});

t.test('a prefetched payload is used once, then a later visit asks again', async (t) => {
  void prefetchPayload('/bonus', run);
  await flush();
  answer(0, 1);
  await flush();
  t.equal(await fetchPayload('/bonus'), 1);
  clock += payloadFreshMs + 1;
  const again = fetchPayload('/bonus');
  await flush();
  t.equal(calls.length, 2, 'used up: a new request');
  answer(1, 2);
  t.equal(await again, 2);
});

t.test('a stale prefetch is not used', async (t) => {
  void prefetchPayload('/bonus', run);
  await flush();
  answer(0, 'old');
  await flush();
  clock += payloadFreshMs + 1;
  const navigation = fetchPayload('/bonus');
  await flush();
  t.equal(calls.length, 2);
  answer(1, 'new');
  t.equal(await navigation, 'new');
});

t.test('a query-only change of the page just shown reuses its payload for a few seconds', async (t) => {
  const first = fetchPayload('/asdas');
  await flush();
  answer(0, 'list');
  t.equal(await first, 'list');
  t.equal(await fetchPayload('/asdas'), 'list');
  t.equal(calls.length, 1);
  const prefetchedAgain = prefetchPayload('/asdas', run);
  await prefetchedAgain;
  t.equal(calls.length, 1, 'nor prefetched again');
});

t.test('a failed prefetch is not kept; an error answer is read as the page error', async (t) => {
  void prefetchPayload('/gone', run);
  await flush();
  answer(0, { statusCode: 404, message: 'Page not found: /gone', fatal: false }, 404);
  await flush();
  const navigation = fetchPayload('/gone');
  await flush();
  t.equal(calls.length, 2, 'the navigation asks itself');
  answer(1, { statusCode: 404, message: 'Page not found: /gone', fatal: false }, 404);
  const error = await navigation.catch((caught: unknown) => caught);
  t.equal((error as { init: { status: number } }).init.status, 404, 'thrown as the page error, with its status');
  t.same((error as { data: unknown }).data, { statusCode: 404, message: 'Page not found: /gone', fatal: false });
  const retry = fetchPayload('/gone');
  await flush();
  t.equal(calls.length, 3, 'an error is not reused: trying again asks again');
  answer(2, { statusCode: 404, message: 'Page not found: /gone', fatal: false }, 404);
  await retry.catch(() => undefined);
});

t.test('a cancelled navigation leaves the prefetched answer for the next one', async (t) => {
  void prefetchPayload('/bonus', run);
  await flush();
  const controller = new AbortController();
  const cancelled = fetchPayload('/bonus', controller.signal);
  controller.abort();
  await t.rejects(cancelled);
  answer(0, 'bonus');
  await flush();
  t.equal(await fetchPayload('/bonus'), 'bonus');
  t.equal(calls.length, 1);
});

t.test("a click while its prefetch is still queued: one request, the navigation's", async (t) => {
  // Issue 29: the slots are busy, the link's prefetch waits; the click asks itself; the prefetch,
  // started when a slot frees (or asked again by the focus the click gives), must not ask again.
  const limited = pLimit(1);
  void prefetchPayload('/busy', limited);
  const queuedPrefetch = prefetchPayload('/bonus', limited);
  await flush();
  t.equal(calls.length, 1, 'the slot is busy');
  const navigation = fetchPayload('/bonus');
  await flush();
  t.same(
    calls.map((call) => call.url),
    ['/busy/_payload.json', '/bonus/_payload.json'],
    'the navigation does not wait for the queue',
  );
  answer(0, 'busy');
  await queuedPrefetch;
  void prefetchPayload('/bonus', run);
  await flush();
  t.equal(calls.length, 2, 'neither the queued prefetch nor a new one asks again while the navigation does');
  answer(1, 'bonus');
  t.equal(await navigation, 'bonus');
  await prefetchPayload('/bonus', run);
  t.equal(calls.length, 2, 'nor right after it');
});

t.test('a cancelled navigation request does not stop a later prefetch', async (t) => {
  const controller = new AbortController();
  globalThis.fetch = ((url: string, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      calls.push({
        url,
        resolve: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status })),
      });
    })) as typeof fetch;
  const cancelled = fetchPayload('/bonus', controller.signal);
  controller.abort();
  await t.rejects(cancelled);
  void prefetchPayload('/bonus', run);
  await flush();
  t.equal(calls.length, 2, 'the prefetch asks');
});

t.test('prefetches share the limit and a path is queued once', async (t) => {
  const limited = pLimit(2);
  const paths = ['/a', '/b', '/c', '/d', '/a', '/b', '/c'];
  const all = paths.map((path) => prefetchPayload(path, limited));
  await flush();
  t.equal(calls.length, 2, 'two at a time');
  answer(0, 'a');
  answer(1, 'b');
  await flush();
  await flush();
  t.equal(calls.length, 4);
  answer(2, 'c');
  answer(3, 'd');
  await Promise.all(all);
  t.same(
    calls.map((call) => call.url),
    ['/a/_payload.json', '/b/_payload.json', '/c/_payload.json', '/d/_payload.json'],
    'each path once',
  );
});

t.test('the page a path opens, for prefetch', async (t) => {
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
