import t from 'tap';
import { dropIdleSets, loadLocalSet, SET_IDLE_MS } from '../../lib/icons/local-sets.ts';
import { iconCache } from '../../lib/icons/cache.ts';
import { collectionFromParam, parseIconsQuery, splitQualifiedName } from '../../contract/icon-names.ts';
import { sanitizeIconSet } from '../../lib/icons/upstream.ts';

t.test('parseIconsQuery', async (t) => {
  t.same(parseIconsQuery('home,account'), { ok: true, names: ['account', 'home'] });
  t.same(parseIconsQuery(['home', 'account,home']), { ok: true, names: ['account', 'home'] }, 'joins, dedupes, sorts');
  t.same(parseIconsQuery('a-1,b2-c3'), { ok: true, names: ['a-1', 'b2-c3'] });
  t.same(parseIconsQuery(Array.from({ length: 100 }, (_, i) => `i${i}`)).ok, true, '100 names');
  for (const bad of [
    undefined,
    '',
    [],
    [''],
    'a,,b',
    'a,',
    'A',
    '-a',
    'a-',
    'a--b',
    'a_b',
    'a b',
    'a'.repeat(65),
    42,
    ['a', 1],
  ]) {
    t.equal(parseIconsQuery(bad).ok, false, `refuses ${JSON.stringify(bad)}`);
  }
  t.equal(parseIconsQuery(Array.from({ length: 101 }, (_, i) => `i${i}`)).ok, false, '101 names');
  t.equal(parseIconsQuery('a'.repeat(64)).ok, true, 'a 64-character name');
});

t.test('collectionFromParam', async (t) => {
  t.equal(collectionFromParam('mdi.json'), 'mdi');
  t.equal(collectionFromParam('circle-flags.json'), 'circle-flags');
  t.equal(collectionFromParam(`${'a'.repeat(64)}.json`), 'a'.repeat(64));
  for (const bad of [
    'mdi',
    'mdi.svg',
    '.json',
    '../mdi.json',
    'a/b.json',
    '__proto__.json',
    'constructor.json',
    `${'a'.repeat(65)}.json`,
    'Mdi.json',
    undefined,
  ]) {
    t.equal(collectionFromParam(bad), null, `refuses ${JSON.stringify(bad)}`);
  }
});

t.test('splitQualifiedName', async (t) => {
  t.same(splitQualifiedName('mdi:home'), ['mdi', 'home']);
  t.equal(splitQualifiedName('home'), null);
  t.equal(splitQualifiedName('mdi:home:x'), null);
  t.equal(splitQualifiedName('../mdi:home'), null);
  t.equal(splitQualifiedName('constructor:home'), null);
});

t.test('loadLocalSet loads once while in use, and only for valid installed names', async (t) => {
  const first = await loadLocalSet('mdi');
  t.equal(first?.prefix, 'mdi');
  t.equal(await loadLocalSet('mdi'), first, 'the same object: read once and kept');
  const flags = await loadLocalSet('circle-flags');
  const usedAt = Date.now();
  t.equal(await loadLocalSet('mdi'), first);
  dropIdleSets(usedAt + SET_IDLE_MS - 1);
  t.equal(await loadLocalSet('mdi'), first, 'still held a moment before its idle time since the last use');
  dropIdleSets(Date.now() + SET_IDLE_MS);
  const again = await loadLocalSet('mdi');
  t.not(again, first, 'let go once nobody asked for it in SET_IDLE_MS, then read again');
  t.same(Object.keys(again!.icons), Object.keys(first!.icons), 'the same icons');
  t.not(await loadLocalSet('circle-flags'), flags, 'every idle set is let go');
  t.equal(Object.getPrototypeOf(first!.icons), null, 'icon table without a prototype');
  t.equal(await loadLocalSet('not-installed-set'), null);
  t.equal(await loadLocalSet('../mdi'), null);
  t.equal(await loadLocalSet('mdi/../mdi'), null);
  t.equal(await loadLocalSet('constructor'), null);
});

t.test('sanitizeIconSet keeps only well-typed icon data', async (t) => {
  const set = sanitizeIconSet(
    {
      prefix: 'x',
      width: 10,
      height: '10',
      icons: { a: { body: '<g/>', rotate: 1, hFlip: 'yes', extra: 1 }, b: { body: 5 }, c: 'nope' },
      aliases: { d: { parent: 'a', vFlip: true }, e: { parent: 1 } },
    },
    'x',
  );
  t.same(JSON.parse(JSON.stringify(set)), {
    prefix: 'x',
    icons: { a: { body: '<g/>', rotate: 1 } },
    aliases: { d: { parent: 'a', vFlip: true } },
    width: 10,
  });
  t.equal(sanitizeIconSet({ prefix: 'y', icons: {} }, 'x'), null, 'another prefix');
  t.equal(sanitizeIconSet([], 'x'), null);
  t.equal(sanitizeIconSet({ prefix: 'x' }, 'x'), null, 'no icons');
});

t.test('iconCache', async (t) => {
  // A clock the test moves (lru-cache takes a start of 0 for "no start", so it starts later).
  let now = 1000;
  const cache = iconCache<string>(2, 10, () => now);
  cache.set('a', 'A', { ttl: 100, size: 3 });
  cache.set('b', 'B', { ttl: 100, size: 3 });
  t.equal(cache.get('a'), 'A', 'a is now the most recently used');
  cache.set('c', 'C', { ttl: 100, size: 3 });
  t.equal(cache.get('b'), undefined, 'b, least recently used, went first');
  t.equal(cache.get('a'), 'A');
  t.equal(cache.get('c'), 'C');
  t.equal(cache.size, 2);
  t.equal(cache.calculatedSize, 6);

  cache.set('big', 'BIG', { ttl: 100, size: 8 });
  t.equal(cache.size, 1, 'the byte bound evicts as many as needed');
  t.equal(cache.calculatedSize, 8);
  t.equal(cache.get('big'), 'BIG');
  cache.set('huge', 'HUGE', { ttl: 100, size: 11 });
  t.equal(cache.get('huge'), undefined, 'an entry larger than the bound is not kept');
  t.equal(cache.get('big'), 'BIG', 'and does not evict the others');

  now = 1101; // just past the 100 ms time to live
  t.equal(cache.get('big'), undefined, 'expired');
  t.equal(cache.size, 0);
  t.equal(cache.calculatedSize, 0);
});
