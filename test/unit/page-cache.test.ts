import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import { negotiateEncoding } from '../../lib/encoding.ts';
import { PageCache, PageEntry } from '../../lib/page-cache.ts';
import { pageCacheKey } from '../../lib/page-cache-key.ts';
import { hitAnswer } from '../../lib/page-cache-answer.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { stringMemo } from '../../lib/string-memo.ts';

const html = (size: number, fill = 'a') => Buffer.from(`<!doctype html><p>${fill.repeat(size)}</p>`);
const entry = (body: Buffer, generation = 'build-1 content-1') =>
  new PageEntry({
    body,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
    generation,
  });
const personal = { session: 'token', flash: 'flash' };
const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
/** The query the page routed to reads, as its route declares it: only the article list reads one. */
const listQuery = pageRoutes.find((route) => route.id === 'articles')!.query;
const readQuery = (url: string) => (/^(\/th)?\/asdas$/.test(url.split('?')[0]!) ? listQuery : undefined);
const key = (url: string, headers: Record<string, string> = {}, cookies: Record<string, string> = {}) =>
  pageCacheKey({ url, headers: { 'user-agent': chrome, ...headers }, cookies }, readQuery(url), personal);

t.test(
  'the key: path, the parameters the page reads, language inputs and bot; personal requests have none',
  async (t) => {
    t.equal(key('/asdas?page=%32'), undefined, 'another spelling of a value: never cached (it is redirected)');
    t.equal(key('/asdas?page=2&page=3'), undefined, 'nor a repeated parameter');
    t.not(key('/asdas?page=2'), key('/asdas'), 'the parameters the page reads are part of it');
    t.not(key('/th/asdas?page=2'), undefined, 'in each language');
    t.equal(key('/asdas?x=1'), undefined, 'a parameter the page does not read: never cached');
    t.equal(key('/asdas?page=2&utm_source=mail'), undefined, 'not even beside one it reads');
    t.equal(key('/bonus?page=2'), undefined, 'a parameter another page reads');
    t.equal(key('/asdas/_payload.json?page=2'), undefined, 'payloads take no query');
    t.not(key('/th/asdas'), key('/asdas'), 'so is the language of the path');
    t.not(
      key('/', { 'accept-language': 'th' }),
      key('/', { 'accept-language': 'en' }),
      'the preferred language (the / → /th offer)',
    );
    t.not(key('/', {}, { lang: 'en' }), key('/'), 'a chosen language');
    t.equal(key('/', {}, { lang: 'xx' }), key('/', {}, { lang: 'yy' }), 'unknown language cookies are one value');
    t.not(key('/', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }), key('/'), 'bots apart');
    t.equal(key('/', {}, { token: 'abc' }), undefined, 'a session: never cached');
    t.equal(key('/', { authorization: 'Bearer x' }), undefined, 'an Authorization header: never cached');
    t.equal(key('/', {}, { flash: 'signed-in' }), undefined, 'a flash notice: never cached');
  },
);

t.test('Accept-Encoding negotiation: q-values, preference, identity', async (t) => {
  t.equal(negotiateEncoding('gzip, deflate, br, zstd'), 'br', 'a browser gets brotli');
  t.equal(negotiateEncoding('gzip'), 'gzip');
  t.equal(negotiateEncoding('br;q=0.5, gzip;q=0.8'), 'gzip', 'q-values win over preference');
  t.equal(negotiateEncoding('br;q=0, gzip'), 'gzip', 'q=0 refuses');
  t.equal(negotiateEncoding('*'), 'gzip', 'a wildcard is gzip (as @fastify/compress reads it)');
  t.equal(negotiateEncoding(undefined), 'identity', 'no header: as is');
  t.equal(negotiateEncoding('identity'), 'identity');
  t.equal(negotiateEncoding('zstd'), 'identity', 'nothing we offer: as is');
});

t.test('an entry compresses each encoding once and round-trips', async (t) => {
  const page = entry(html(5000, 'hello '));
  const [first, second] = await Promise.all([page.body('br'), page.body('br')]);
  t.equal(first, second, 'concurrent first uses share one compression');
  t.same(brotliDecompressSync(first), page.identity);
  t.same(gunzipSync(await page.body('gzip')), page.identity);
  t.ok(page.size > page.identity.length, 'variants count towards the size');
  t.not(page.etag('br'), page.etag('identity'), 'a strong ETag per encoding');
  t.ok(page.matches(page.etag('gzip')) && page.matches(`W/${page.etag('identity')}`) && page.matches('*'));
  t.notOk(page.matches('"other"'));
  t.equal(entry(html(10)).encodingFor('br'), 'identity', 'small bodies are never compressed');
});

t.test('an entry holds exactly the bytes it counts (no pooled slab kept alive)', async (t) => {
  // Small Buffers share a pool slab (8 KiB on Node 20, 64 KiB on Node 24); so do zlib's results.
  const pooled = html(300, 'slab ');
  t.ok(pooled.buffer.byteLength > pooled.length, 'the body as rendered is a view into a larger slab');
  const page = entry(pooled);
  t.same(page.identity, pooled);
  const stored = [page.identity, await page.body('br'), await page.body('gzip')];
  for (const bytes of stored)
    t.equal(bytes.buffer.byteLength, bytes.length, `${bytes.length} bytes held in ${bytes.buffer.byteLength}`);
  t.equal(
    page.size,
    stored.reduce((sum, bytes) => sum + bytes.buffer.byteLength, 0),
    'the size bound counts what is held',
  );
});

t.test('the size bound evicts the least recently used', async (t) => {
  const cache = new PageCache({ ttlMs: 60_000, maxBytes: 25_000 });
  cache.set('a', entry(html(10_000)));
  cache.set('b', entry(html(10_000)));
  cache.get('a', 'build-1 content-1');
  cache.set('c', entry(html(10_000)));
  t.ok(cache.get('a', 'build-1 content-1'), 'a was used recently: kept');
  t.notOk(cache.get('b', 'build-1 content-1'), 'b evicted');
  t.ok(cache.bytes <= 25_000, `held ${cache.bytes} bytes`);
  // A variant made later grows the entry: the bound still holds.
  await cache.get('a', 'build-1 content-1')!.body('gzip');
  await cache.get('c', 'build-1 content-1')!.body('br');
  t.ok(cache.bytes <= 25_000, `held ${cache.bytes} bytes with variants`);
});

t.test('entries age out, and another generation (a new build, new content) is never served', async (t) => {
  let now = 1_000;
  const cache = new PageCache({ ttlMs: 5_000, maxBytes: 1_000_000, now: () => now });
  cache.set('page', entry(html(100)));
  now += 4_999;
  t.ok(cache.get('page', 'build-1 content-1'), 'young enough');
  now += 2;
  t.notOk(cache.get('page', 'build-1 content-1'), 'too old');
  cache.set('page', entry(html(100)));
  t.notOk(cache.get('page', 'build-2 content-1'), 'another build');
  t.equal(cache.size, 0, 'and dropped');
  cache.set('page', entry(html(100)));
  cache.clear();
  t.notOk(cache.get('page', 'build-1 content-1'), 'cleared');
});

t.test('one render per key: later misses wait for the first', async (t) => {
  const cache = new PageCache({ ttlMs: 5_000, maxBytes: 1_000_000 });
  const done = cache.claim('k');
  t.ok(done, 'the first claims');
  t.equal(cache.claim('k'), undefined, 'the second waits');
  let waited = false;
  const waiting = cache.rendered('k').then(() => (waited = true));
  cache.set('k', entry(html(10)));
  done!();
  done!();
  await waiting;
  t.ok(waited);
  t.ok(cache.claim('k'), 'free again once done (twice is harmless)');
});

t.test("a hit's answer: made once its encoding's bytes are, the same headers the hooks would set", async (t) => {
  const page = new PageEntry({
    body: html(2_000),
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' },
    fixedHeaders: [['X-Frame-Options', 'DENY']],
    generation: 'g',
  });
  t.equal(hitAnswer(page, 'br'), undefined, 'not before its brotli bytes are made');
  const brotli = await page.body('br');
  const answer = hitAnswer(page, 'br')!;
  t.equal(answer.body, brotli);
  t.same(answer.ok, [
    'X-Frame-Options',
    'DENY',
    'x-request-id',
    '',
    'x-cache',
    'HIT',
    'content-type',
    'text/html; charset=utf-8',
    'cache-control',
    'no-cache',
    'vary',
    'accept-encoding',
    'etag',
    page.etag('br'),
    'content-encoding',
    'br',
    'content-length',
    String(brotli.length),
  ]);
  t.equal(answer.ok[answer.idIndex - 1], 'x-request-id', 'the request id goes at idIndex');
  t.same(answer.notModified, answer.ok.slice(0, -4), '304: without the body’s headers');
  t.equal(hitAnswer(page, 'br'), answer, 'made once');
  const small = new PageEntry({ body: html(10), headers: { 'content-type': 'application/json' }, generation: 'g' });
  t.same(
    hitAnswer(small, 'br')?.ok.slice(2),
    [
      'x-cache',
      'HIT',
      'content-type',
      'application/json',
      'etag',
      small.etag('identity'),
      'content-length',
      String(small.identity.length),
    ],
    'a small body: as is, no Vary',
  );
});

t.test('header answers remembered per value: the same answers, and a bounded memory', async (t) => {
  let computed = 0;
  const memo = stringMemo((value: string) => (computed++, value.length), { size: 2, maxLength: 5 });
  t.equal(memo('ab'), 2);
  t.equal(memo('ab'), 2);
  t.equal(computed, 1, 'once per value');
  memo('abc');
  memo('abcd');
  memo('ab');
  t.equal(computed, 4, 'full: the least recently used was dropped');
  memo('a long value');
  memo('a long value');
  t.equal(computed, 6, 'a long value is never kept');
});
