import t from 'tap';
import {
  RELOAD_MARKER_KEY,
  RELOAD_TTL_MS,
  browserSessionStorage,
  isChunkLoadError,
  isCssPreloadError,
  parseMarker,
  shouldReloadForChunkError,
  unwrapPreloadError,
  type ChunkReloadOptions,
  type MarkerStorage,
  type MemoryMarker,
} from '../../client/lib/chunk-reload-guard.ts';

class FakeStorage implements MarkerStorage {
  data = new Map<string, string>();
  gets = 0;
  sets = 0;
  getItem(key: string): string | null {
    this.gets++;
    return this.data.has(key) ? this.data.get(key)! : null;
  }
  setItem(key: string, value: string): void {
    this.sets++;
    this.data.set(key, String(value));
  }
}

class ThrowingStorage implements MarkerStorage {
  constructor(
    private readonly onGet: boolean,
    private readonly onSet: boolean,
  ) {}
  store = new Map<string, string>();
  getItem(key: string): string | null {
    if (this.onGet) throw new DOMException('The operation is insecure.', 'SecurityError');
    return this.store.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.onSet) throw new DOMException('QuotaExceededError', 'QuotaExceededError');
    this.store.set(key, value);
  }
}

function clock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const fresh = (): MemoryMarker => ({ marker: null });

t.test('constants', async (t) => {
  t.equal(RELOAD_TTL_MS, 10_000);
  t.equal(RELOAD_MARKER_KEY, 'asdas:reload');
});

t.test('first failure reloads and writes the marker; a second within 10 s does not', async (t) => {
  const storage = new FakeStorage();
  const c = clock();
  const opts = { storage, now: c.now, memory: fresh() };
  t.equal(shouldReloadForChunkError('/asdas/x', opts), true);
  t.same(JSON.parse(storage.data.get('asdas:reload')!), { path: '/asdas/x', expires: c.now() + 10_000 });

  c.advance(1);
  t.equal(shouldReloadForChunkError('/asdas/x', opts), false, 'same path after 1 ms');
  c.advance(9_998); // 9999 ms after the marker was written
  t.equal(shouldReloadForChunkError('/asdas/x', opts), false, 'same path after 9999 ms');
  t.equal(storage.sets, 1, 'a refused reload does not refresh the marker');
  c.advance(1); // exactly 10000 ms: expired
  t.equal(shouldReloadForChunkError('/asdas/x', opts), true, 'same path after 10 s');
  t.equal(storage.sets, 2);
});

t.test('a different path reloads even inside the TTL and replaces the marker', async (t) => {
  const storage = new FakeStorage();
  const c = clock();
  const opts = { storage, now: c.now, memory: fresh() };
  t.equal(shouldReloadForChunkError('/a', opts), true);
  c.advance(100);
  t.equal(shouldReloadForChunkError('/b', opts), true);
  t.equal(JSON.parse(storage.data.get(RELOAD_MARKER_KEY)!).path, '/b');
  c.advance(100);
  t.equal(shouldReloadForChunkError('/b', opts), false);
  t.equal(shouldReloadForChunkError('/a', opts), true, '/a marker was replaced by /b');
  t.equal(shouldReloadForChunkError('/a?page=2', opts), true, 'query is part of the path');
});

t.test('the marker persists across page loads through the storage (fresh memory each load)', async (t) => {
  const storage = new FakeStorage();
  const c = clock();
  t.equal(shouldReloadForChunkError('/x', { storage, now: c.now, memory: fresh() }), true);
  c.advance(3_000);
  t.equal(
    shouldReloadForChunkError('/x', { storage, now: c.now, memory: fresh() }),
    false,
    'after reload: no second reload',
  );
  c.advance(7_000);
  t.equal(shouldReloadForChunkError('/x', { storage, now: c.now, memory: fresh() }), true);
});

t.test('malformed markers are ignored', async (t) => {
  const bad = [
    'not json',
    '{',
    'null',
    '42',
    '"string"',
    '[]',
    JSON.stringify({ path: '/x' }),
    JSON.stringify({ expires: 1e20 }),
    JSON.stringify({ path: 1, expires: 1_700_000_005_000 }),
    JSON.stringify({ path: '/x', expires: '1700000005000' }),
    JSON.stringify({ path: '/x', expires: null }),
    JSON.stringify({ path: '/x', expires: 1_700_000_000_000 + 10_001 }), // beyond one TTL in the future
    '{"path":"/x","expires":1e400}', // parses to Infinity
  ];
  for (const raw of bad) {
    const storage = new FakeStorage();
    storage.data.set(RELOAD_MARKER_KEY, raw);
    const c = clock(1_700_000_000_000);
    t.equal(shouldReloadForChunkError('/x', { storage, now: c.now, memory: fresh() }), true, raw);
    t.same(
      JSON.parse(storage.data.get(RELOAD_MARKER_KEY)!),
      { path: '/x', expires: 1_700_000_010_000 },
      `${raw}: overwritten`,
    );
  }
  // A well-formed marker exactly one TTL ahead still blocks.
  const storage = new FakeStorage();
  storage.data.set(RELOAD_MARKER_KEY, JSON.stringify({ path: '/x', expires: 1_700_000_010_000 }));
  t.equal(shouldReloadForChunkError('/x', { storage, now: () => 1_700_000_000_000, memory: fresh() }), false);
});

t.test('parseMarker', async (t) => {
  t.same(parseMarker('{"path":"/a","expires":15}', 10, 10), { path: '/a', expires: 15 });
  t.equal(parseMarker('{"path":"/a","expires":21}', 10, 10), null);
  t.equal(parseMarker(undefined, 10, 10), null);
  t.same(parseMarker({ path: '/a', expires: 12, extra: true }, 10, 10), { path: '/a', expires: 12 });
});

t.test('storage that throws never throws out, and reloads at most once per page lifetime', async (t) => {
  const variants: Array<[string, () => unknown]> = [
    ['getItem and setItem throw', () => new ThrowingStorage(true, true)],
    ['getItem throws', () => new ThrowingStorage(true, false)],
    ['setItem throws (quota)', () => new ThrowingStorage(false, true)],
    [
      'reading sessionStorage throws',
      () => () => {
        throw new DOMException('denied', 'SecurityError');
      },
    ],
    ['no storage (null)', () => null],
  ];
  for (const [label, make] of variants) {
    const storage = make() as ChunkReloadOptions['storage'];
    const c = clock();
    const memory = fresh();
    const opts = { storage, now: c.now, memory };
    t.equal(shouldReloadForChunkError('/p', opts), true, `${label}: first failure reloads`);
    c.advance(5_000);
    t.equal(shouldReloadForChunkError('/p', opts), false, `${label}: second failure inside TTL does not`);
    t.equal(shouldReloadForChunkError('/q', opts), true, `${label}: another path reloads`);
    c.advance(10_000);
    t.equal(shouldReloadForChunkError('/q', opts), true, `${label}: after TTL reloads again`);
  }
});

t.test('getItem working but setItem throwing keeps the in-memory marker', async (t) => {
  const storage = new ThrowingStorage(false, true);
  const memory = fresh();
  t.equal(shouldReloadForChunkError('/p', { storage, now: () => 0, memory }), true);
  t.same(memory.marker, { path: '/p', expires: 10_000 });
  t.equal(storage.store.size, 0);
  t.equal(shouldReloadForChunkError('/p', { storage, now: () => 1, memory }), false);
});

t.test('default storage in Node (no window) does not throw', async (t) => {
  t.equal(browserSessionStorage(), null);
  const memory = fresh();
  t.equal(shouldReloadForChunkError('/n', { now: () => 0, memory }), true);
  t.equal(shouldReloadForChunkError('/n', { now: () => 1, memory }), false);
});

t.test('isCssPreloadError / isChunkLoadError', async (t) => {
  const cases: Array<[string, unknown, boolean, boolean]> = [
    // label, error, isChunkLoadError, isCssPreloadError
    ['vite css', new Error('Unable to preload CSS for /assets/page-abc123.css'), false, true],
    [
      'chrome',
      new TypeError('Failed to fetch dynamically imported module: https://site.example/assets/page-abc.js'),
      true,
      false,
    ],
    [
      'firefox',
      new TypeError('error loading dynamically imported module: https://site.example/assets/page-abc.js'),
      true,
      false,
    ],
    ['safari', new TypeError('Importing a module script failed.'), true, false],
    ['safari mime', new TypeError("'text/html' is not a valid JavaScript MIME type."), true, false],
    [
      'chrome mime',
      new TypeError(
        'Failed to load module script: Expected a JavaScript module script but the server responded with a MIME type of "text/html".',
      ),
      true,
      false,
    ],
    ['webpack', Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }), true, false],
    ['named only', Object.assign(new Error('x'), { name: 'ChunkLoadError' }), true, false],
    ['string', 'Failed to fetch dynamically imported module: /x.js', true, false],
    [
      'wrapped cause',
      new Error('Navigation failed', { cause: new TypeError('Importing a module script failed.') }),
      true,
      false,
    ],
    [
      'vite event js',
      { type: 'vite:preloadError', payload: new TypeError('Failed to fetch dynamically imported module: /a.js') },
      true,
      false,
    ],
    [
      'vite event css',
      { type: 'vite:preloadError', payload: new Error('Unable to preload CSS for /a.css') },
      false,
      true,
    ],
    ['plain error', new Error('Cannot read properties of undefined'), false, false],
    ['network fetch', new TypeError('Failed to fetch'), false, false],
    ['404 page', new Error('Page not found: /x'), false, false],
    ['null', null, false, false],
    ['undefined', undefined, false, false],
    ['number', 42, false, false],
    ['object without message', { foo: 1 }, false, false],
  ];
  for (const [label, error, chunk, css] of cases) {
    t.equal(isChunkLoadError(error), chunk, `${label}: isChunkLoadError`);
    t.equal(isCssPreloadError(error), css, `${label}: isCssPreloadError`);
  }
  const inner = new Error('x');
  t.equal(unwrapPreloadError({ type: 'vite:preloadError', payload: inner }), inner);
  t.equal(unwrapPreloadError(inner), inner);
});
