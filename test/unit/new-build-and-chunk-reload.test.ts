import t from 'tap';
import type { Location, RouteObject } from 'react-router';
import type { BuildInfo } from '../../client/lib/build-check.ts';
import {
  RELOAD_MARKER_KEY,
  shouldReloadForChunkError,
  type MarkerStorage,
} from '../../client/lib/chunk-reload-guard.ts';
import { guardLazyRoutes, handlePreloadError, listenForPreloadErrors } from '../../client/router/chunk-reload.ts';
import { startNewBuildReload, type NavigationState } from '../../client/router/new-build-reload.ts';

const settle = (ms = 30) => new Promise((done) => setTimeout(done, ms));

function fakeRouter() {
  const listeners = new Set<(state: NavigationState) => void>();
  return {
    listeners,
    subscribe(listener: (state: NavigationState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(state: NavigationState['navigation']) {
      for (const listener of listeners) listener({ navigation: state });
    },
  };
}

const location = (pathname: string, search = '', hash = ''): Location => ({
  pathname,
  search,
  hash,
  state: null,
  key: 'k',
});

t.test('new build: the next navigation after a new id is a full load of its whole target', async (t) => {
  const router = fakeRouter();
  const loads: string[] = [];
  const outdated: BuildInfo[] = [];
  let fetches = 0;
  const answers: (BuildInfo | Error)[] = [
    { id: 'A', timestamp: 1 },
    new Error('offline'),
    { id: 'A', timestamp: 1 },
    { id: 'B', timestamp: 2 },
  ];
  const reload = startNewBuildReload({
    currentId: 'A',
    intervalMs: 5,
    router,
    hardNavigate: (path) => loads.push(path),
    fetchLatest: async () => {
      const answer = answers[Math.min(fetches++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    onOutdated: (latest) => outdated.push(latest),
  });
  t.teardown(() => reload.stop());

  t.equal(router.listeners.size, 0, 'nothing watches navigations while the build is current');
  router.emit({ state: 'loading', location: location('/bonus') });
  t.same(loads, [], 'a navigation on the current build stays in the app');

  for (let i = 0; i < 50 && outdated.length === 0; i++) await settle(5);
  t.same(outdated, [{ id: 'B', timestamp: 2 }], 'the new build is reported once (a failed check did not stop polling)');
  t.same(reload.outdatedBy(), { id: 'B', timestamp: 2 });
  const checks = fetches;
  await settle(40);
  t.equal(fetches, checks, 'polling stopped after the new id');

  router.emit({ state: 'idle' });
  router.emit({ state: 'submitting', location: location('/login'), formMethod: 'POST' });
  router.emit({ state: 'loading', location: location('/login'), formMethod: 'post' });
  t.same(loads, [], 'idle states and non-GET submissions are left alone');
  router.emit({ state: 'loading', location: location('/th/asdas', '?page=2', '#list') });
  router.emit({ state: 'loading', location: location('/bonus') });
  t.same(loads, ['/th/asdas?page=2#list'], 'one full load, of the path with its query and hash');
});

t.test('new build: a GET form navigation is loaded too; stop() ends everything', async (t) => {
  const router = fakeRouter();
  const loads: string[] = [];
  const reload = startNewBuildReload({
    currentId: 'A',
    intervalMs: 5,
    router,
    hardNavigate: (path) => loads.push(path),
    fetchLatest: async () => ({ id: 'B', timestamp: 2 }),
  });
  for (let i = 0; i < 50 && !reload.outdatedBy(); i++) await settle(5);
  router.emit({ state: 'loading', location: location('/asdas', '?q=x'), formMethod: 'get' });
  t.same(loads, ['/asdas?q=x']);
  reload.stop();
  t.equal(router.listeners.size, 0, 'unsubscribed');

  let fetches = 0;
  const stopped = startNewBuildReload({
    currentId: 'A',
    intervalMs: 5,
    router,
    hardNavigate: () => undefined,
    fetchLatest: async () => {
      fetches++;
      return { id: 'A', timestamp: 1 };
    },
  });
  stopped.stop();
  await settle(30);
  t.equal(fetches, 0, 'a stopped check never polls');
});

function preloadEvent(payload: unknown): Event & { payload: unknown } {
  const event = new Event('vite:preloadError', { cancelable: true }) as Event & { payload: unknown };
  event.payload = payload;
  return event;
}

t.test('vite:preloadError: a CSS-only failure is swallowed, a JavaScript one is remembered and rethrown', async (t) => {
  const seen = new WeakSet<object>();
  const css = preloadEvent(new Error('Unable to preload CSS for /assets/content-abc.css'));
  handlePreloadError(css, seen);
  t.ok(css.defaultPrevented, 'CSS: preventDefault, so the import goes on and nothing reloads');
  t.notOk(seen.has(css.payload as object));

  const jsError = new TypeError(
    'Failed to fetch dynamically imported module: https://site.example/assets/content-abc.js',
  );
  const js = preloadEvent(jsError);
  handlePreloadError(js, seen);
  t.notOk(js.defaultPrevented, 'JavaScript: the import still rejects');
  t.ok(seen.has(jsError), 'and the error is known to be a chunk failure');

  const target = new EventTarget();
  const stop = listenForPreloadErrors(target, seen);
  const odd = new Error('some wording no regex knows');
  target.dispatchEvent(preloadEvent(odd));
  t.ok(seen.has(odd), 'the window listener feeds the same set');
  stop();
  const later = new Error('after stop');
  target.dispatchEvent(preloadEvent(later));
  t.notOk(seen.has(later));
  handlePreloadError(preloadEvent(undefined), seen);
  t.pass('an event without a payload is ignored');
});

class MemoryStorage implements MarkerStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

type Lazy = () => Promise<{ handle?: unknown }>;

function routeTable(lazy: Lazy): RouteObject[] {
  return [{ id: 'root', path: '/', children: [{ id: 'en', children: [{ id: 'page', path: 'bonus', lazy }] }] }];
}

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://x/assets/content-1.js');

function pageLazy(routes: RouteObject[]) {
  return routes[0]!.children![0]!.children![0]!.lazy as Lazy;
}

t.test('a chunk that fails during a navigation reloads the target once per path per 10 s', async (t) => {
  let now = 1_000_000;
  const storage = new MemoryStorage();
  const memory = { marker: null };
  const reloads: string[] = [];
  let target: string | null = '/bonus?x=1#top';
  const routes = routeTable(async () => {
    throw chunkError();
  });
  guardLazyRoutes(routes, {
    seen: new WeakSet(),
    navigationTarget: () => target,
    reload: (path) => reloads.push(path),
    shouldReload: (path) => shouldReloadForChunkError(path, { storage, memory, now: () => now }),
  });
  const lazy = pageLazy(routes);

  let settled = false;
  void lazy().then(
    () => (settled = true),
    () => (settled = true),
  );
  await settle(5);
  t.same(reloads, ['/bonus?x=1#top'], 'first failure: one full load of the whole target');
  t.notOk(settled, 'the navigation waits while the page unloads');
  t.same(JSON.parse(storage.data.get(RELOAD_MARKER_KEY)!), { path: '/bonus?x=1#top', expires: now + 10_000 });

  now += 9_999;
  await t.rejects(
    lazy(),
    /Failed to fetch dynamically imported module/,
    'second failure inside 10 s: the router gets the error',
  );
  t.same(reloads, ['/bonus?x=1#top'], 'no second reload');

  target = '/author';
  void lazy().catch(() => undefined);
  await settle(5);
  t.same(reloads, ['/bonus?x=1#top', '/author'], 'another path may reload');

  now += 20_000;
  target = '/author';
  void lazy().catch(() => undefined);
  await settle(5);
  t.equal(reloads.length, 3, 'after the marker expired, the same path may reload again');
});

t.test('what does not reload: other errors, failures outside a navigation, a page already being left', async (t) => {
  const reloads: string[] = [];
  const boom = new Error('the page module threw while evaluating');
  let error: Error = boom;
  let target: string | null = '/bonus';
  let leaving = false;
  const routes = routeTable(async () => {
    throw error;
  });
  guardLazyRoutes(routes, {
    seen: new WeakSet(),
    navigationTarget: () => target,
    reload: (path) => reloads.push(path),
    leaving: () => leaving,
    shouldReload: () => true,
  });
  const lazy = pageLazy(routes);
  await t.rejects(lazy(), boom, 'not a chunk error: rethrown');
  error = chunkError();
  target = null;
  await t.rejects(lazy(), /dynamically imported/, 'outside a navigation (start-up): rethrown for the entry to handle');
  leaving = true;
  target = '/bonus';
  let settled = false;
  void lazy().finally(() => (settled = true));
  await settle(5);
  t.notOk(settled, 'while the page is already unloading, the failure is not reported');
  t.same(reloads, []);
});

t.test(
  'the guard: success passes through; a Vite-reported error counts whatever its wording; storage that throws',
  async (t) => {
    const ok = routeTable(async () => ({ handle: 'loaded' }));
    guardLazyRoutes(ok, { seen: new WeakSet(), navigationTarget: () => '/bonus', reload: () => t.fail('no reload') });
    t.same(await pageLazy(ok)(), { handle: 'loaded' });

    const seen = new WeakSet<object>();
    const odd = new Error('NetworkError with a wording nobody knows');
    seen.add(odd);
    const reloads: string[] = [];
    const routes = routeTable(async () => {
      throw odd;
    });
    const throwing: MarkerStorage = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    };
    const memory = { marker: null };
    guardLazyRoutes(routes, {
      seen,
      navigationTarget: () => '/bonus',
      reload: (path) => reloads.push(path),
      shouldReload: (path) => shouldReloadForChunkError(path, { storage: throwing, memory }),
    });
    void pageLazy(routes)().catch(() => undefined);
    await settle(5);
    t.same(reloads, ['/bonus'], 'storage that throws does not break it: the reload still happens');
    await t.rejects(pageLazy(routes)(), odd, 'and the in-memory marker still stops a second reload');
  },
);
