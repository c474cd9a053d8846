/**
 * Made-up query strings cannot fill the anonymous page cache: a page is kept once per value of
 * the parameters it reads (contract/routes.ts `cacheQuery`), and an address with any other
 * parameter is rendered for its visitor and never kept.
 */
import t from 'tap';
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
