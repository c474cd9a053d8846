/**
 * Made-up query strings cannot fill the anonymous page cache: a page is kept once per value of
 * the parameters it reads (contract/routes.ts `query`), only at the query's normal form (the
 * others are redirected to it), and an address with any other parameter is rendered for its
 * visitor and never kept.
 */
import t from 'tap';
import { runPageSteps } from '../../contract/page-steps.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { browserUserAgent, pageCacheGauges, startTestApp } from '../helpers/app.ts';

const { app, close } = await startTestApp();
t.teardown(close);
const get = (url: string) => app.inject({ url, headers: { 'user-agent': browserUserAgent } });

t.test('300 unique query strings make no entry', async (t) => {
  t.equal((await get('/asdas')).statusCode, 200);
  const before = await pageCacheGauges(app);
  t.ok(before, 'the page cache is on');
  for (let i = 0; i < 300; i += 1) {
    const response = await get(`/asdas?z=${i}`);
    if (response.statusCode !== 200) t.fail(`/asdas?z=${i}: ${response.statusCode}`);
  }
  for (let i = 0; i < 30; i += 1) await get(`/asdas?page=${1_000 + i}`);
  const after = await pageCacheGauges(app);
  t.equal(after?.entries, before?.entries, 'no entry for any of them');
  t.equal(after?.bytes, before?.bytes, 'no memory either');
  t.equal((await get('/asdas')).headers['x-cache'], 'HIT', 'the page itself is still served from memory');
});

t.test('encoded slashes are not another spelling of a page: not found, and no entry', async (t) => {
  t.equal((await get('/bonus')).statusCode, 200);
  const before = await pageCacheGauges(app);
  for (const url of ['/bonus%2F', '/bonus%2F%2F', '/th/bonus%2F', '/author%2Fnicha-srisuk', '/%2Fbonus']) {
    const response = await get(url);
    t.equal(response.statusCode, 404, url);
    t.notMatch(response.body, 'data-testid="content-page"', `${url}: not the page`);
  }
  for (let i = 1; i < 200; i += 1) await get(`/bonus${'%2F'.repeat(i)}`);
  t.same(await pageCacheGauges(app), before, 'no entry and no byte for any of them');
});

t.test('repeating the parameter a page reads makes no entry and evicts none', async (t) => {
  t.equal((await get('/asdas?page=1')).statusCode, 200);
  t.equal((await get('/th/asdas?page=1')).statusCode, 200);
  const before = await pageCacheGauges(app);
  // The flood of the probe: the first value is the one the page reads, the rest made up.
  const variants = [
    ...Array.from({ length: 400 }, (_, i) => `/asdas?page=1&page=junk${i}`),
    ...Array.from({ length: 100 }, (_, i) => `/th/asdas?page=1&page=${i}`),
    `/asdas?${Array.from({ length: 500 }, () => 'page=1').join('&')}`,
    '/asdas?page=%31',
    '/asdas?page=1&',
  ];
  for (const url of variants) {
    const response = await get(url);
    const expected = url.startsWith('/th/') ? '/th/asdas?page=1' : '/asdas?page=1';
    if (response.statusCode !== 301 || response.headers.location !== expected) {
      t.fail(`${url.slice(0, 60)}: ${response.statusCode} to ${String(response.headers.location)}`);
    }
  }
  const after = await pageCacheGauges(app);
  t.same(after, before, 'no entry and no byte for any of them');
  t.equal((await get('/asdas?page=1')).headers['x-cache'], 'HIT', 'the page itself is still served from memory');
  t.equal((await get('/th/asdas?page=1')).headers['x-cache'], 'HIT');
});

t.test('the browser reaches the same normal form, and the payload reads no query', async (t) => {
  const route = pageRoutes.find((candidate) => candidate.id === 'articles')!;
  const steps = (url: string) =>
    runPageSteps({ route, locale: 'en', params: {}, url: new URL(url, 'http://localhost'), user: null }, () =>
      Promise.reject(new Error('a redirect loads no data')),
    );
  t.same(await steps('/asdas?page=2&page=junk'), { type: 'redirect', location: '/asdas?page=2', permanent: true });
  const payload = await get('/asdas/_payload.json?page=1&page=junk');
  t.equal(payload.body, (await get('/asdas/_payload.json')).body, 'the same data as with no query');
  const bad = await get('/asdas?page=junk&page=1');
  t.equal(bad.statusCode, 301, 'the first value is the one kept, even when it is wrong');
  t.equal(bad.headers.location, '/asdas?page=junk');
  t.equal((await get('/asdas?page=junk')).statusCode, 400, 'and that one says what is wrong with it');
});
