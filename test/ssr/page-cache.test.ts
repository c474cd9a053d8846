import t from 'tap';
import { browserUserAgent, googlebot, pageCacheGauges, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';
import type { PublicUser } from '../../contract/page-data.ts';

// The anonymous page cache (plugins/app/page-cache.ts) as visitors meet it: X-Cache, ETag/304,
// what it keeps apart, and what it never keeps.
// `x-stand-in-user` logs a request in some other way than a session cookie or an Authorization
// header (after the accounts plugin's own preHandler): the page cache's key does not see it.
const standIn: PublicUser = {
  id: '00000000-0000-4000-8000-00000000c0de',
  email: 'stand-in@example.com',
  displayName: 'Stand-in Stanislaw',
  locale: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  emailVerified: true,
};
const { app, logs, close } = await startTestApp(
  { PUBLIC_URL: 'http://localhost:3000' },
  {
    extraRoutes: (app) =>
      app.addHook('preHandler', async (request) => {
        if (request.headers['x-stand-in-user']) request.user = standIn;
      }),
  },
);
t.teardown(close);

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url, headers: { 'user-agent': browserUserAgent, 'accept-language': 'en', ...headers } });

t.test('the second anonymous visit is served from memory, byte for byte', async (t) => {
  const first = await get('/bonus');
  t.equal(first.statusCode, 200);
  t.equal(first.headers['x-cache'], 'MISS');
  const second = await get('/bonus');
  t.equal(second.headers['x-cache'], 'HIT');
  t.equal(second.body, first.body);
  t.equal(second.headers['content-type'], 'text/html; charset=utf-8');
  t.equal(
    second.headers['cache-control'],
    'public, max-age=0, s-maxage=5, stale-while-revalidate=30',
    'browsers revalidate, shared caches keep it briefly',
  );
  t.ok(second.headers['content-security-policy'], 'per-request headers are still there');
  t.not(second.headers['x-request-id'], first.headers['x-request-id'], 'a request id of its own');

  const payload = await get('/bonus/_payload.json');
  t.equal(payload.headers['x-cache'], 'MISS');
  const payloadAgain = await get('/bonus/_payload.json');
  t.equal(payloadAgain.headers['x-cache'], 'HIT', 'payloads too');
  t.same(payloadAgain.json(), payload.json());
  t.match(payloadAgain.headers['content-type'], /^application\/json/);

  const head = await get('/bonus', {}, 'HEAD');
  t.equal(head.headers['x-cache'], 'HIT', 'HEAD reads the same entry');
  t.equal(head.body, '', 'without a body');
  t.equal(head.headers['content-length'], String(Buffer.byteLength(first.body)));
});

t.test('a hit answers the bytes and headers of the miss that filled it; logged and counted as a request', async (t) => {
  // Answered by the first hook from what the entry stores (decision 0035): nothing may be lost.
  const url = '/author';
  type Answer = Awaited<ReturnType<typeof get>>;
  const perRequest = ['x-request-id', 'x-cache', 'date'];
  /** In the order sent. */
  const lasting = (answer: Answer, leaveOut: string[] = []) =>
    Object.entries(answer.headers).filter(([name]) => !perRequest.includes(name) && !leaveOut.includes(name));
  const counts = async () => {
    const read = async (name: string) => (await app.metrics.registry.getSingleMetric(name)!.get()).values;
    const requests = await read('http_requests_total');
    const of = (method: string, statusClass: string) =>
      requests
        .filter(
          ({ labels }) =>
            String(labels.route).startsWith('page:') && labels.method === method && labels.status_class === statusClass,
        )
        .reduce((sum, { value }) => sum + value, 0);
    const hits = (await read('page_cache_requests_total')).find(({ labels }) => labels.result === 'hit')?.value ?? 0;
    return { hits, get: of('GET', '2xx'), head: of('HEAD', '2xx'), notModified: of('GET', '3xx') };
  };
  const before = await counts();

  for (const encoding of ['br, gzip', 'gzip', '']) {
    const name = encoding || 'identity';
    const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
    // The first of each encoding renders (a miss) or makes its compressed bytes (a hit waiting for them).
    const first = await get(url, headers);
    t.equal(first.headers['x-cache'], encoding === 'br, gzip' ? 'MISS' : 'HIT');
    const hit = await get(url, headers);
    t.equal(hit.headers['x-cache'], 'HIT', `${name}: a hit`);
    t.same(hit.rawPayload, first.rawPayload, `${name}: the same bytes`);
    // The render sets Cache-Control before Content-Type, the entry the other way round, as before.
    t.same(lasting(hit).sort(), lasting(first).sort(), `${name}: the same headers`);
    t.ok(hit.headers['content-security-policy'], `${name}: the security headers among them`);
    t.match(hit.headers['x-request-id'], /^[0-9a-f-]{36}$/, `${name}: a request id`);
    t.not(hit.headers['x-request-id'], first.headers['x-request-id'], `${name}: of its own`);
    const completed = logs.find(
      (line) => line.msg === 'request completed' && line.reqId === hit.headers['x-request-id'],
    );
    t.match(completed, { res: { statusCode: 200 } }, `${name}: logged as every request is`);

    const head = await get(url, headers, 'HEAD');
    t.equal(head.headers['x-cache'], 'HIT');
    t.equal(head.body, '', `${name} HEAD: no body`);
    t.same(lasting(head), lasting(hit), `${name} HEAD: the same headers`);

    const revalidated = await get(url, { ...headers, 'if-none-match': String(hit.headers.etag) });
    t.equal(revalidated.statusCode, 304);
    t.equal(revalidated.body, '');
    t.same(
      lasting(revalidated),
      lasting(hit, ['content-encoding', 'content-length']),
      `${name} 304: the same headers but those of the body`,
    );
  }

  const after = await counts();
  t.same(
    {
      hits: after.hits - before.hits,
      get: after.get - before.get,
      head: after.head - before.head,
      notModified: after.notModified - before.notModified,
    },
    { hits: 3 + 4 + 4, get: 6, head: 3, notModified: 3 },
    'every hit counted: as a hit, and as a request of its page',
  );
});

t.test('cached pages answer ETag/304', async (t) => {
  const page = await get('/asdas');
  const etag = page.headers.etag as string;
  t.match(etag, /^"[^"]+"$/, 'a strong ETag');
  const again = await get('/asdas', { 'if-none-match': etag });
  t.equal(again.statusCode, 304);
  t.equal(again.headers['x-cache'], 'HIT');
  t.equal(again.body, '');
  t.equal(again.headers.etag, etag);
  const other = await get('/asdas', { 'if-none-match': '"something-else"' });
  t.equal(other.statusCode, 200);
});

t.test('language, bot and the parameters a page reads are kept apart; other parameters are never kept', async (t) => {
  const english = await get('/asdas?page=1');
  const thai = await get('/th/asdas?page=1');
  t.match(english.body, /<html lang="en"/);
  t.match(thai.body, /<html lang="th"/);
  t.equal((await get('/th/asdas?page=1')).headers['x-cache'], 'HIT');

  const bot = await get('/asdas?page=1', { 'user-agent': googlebot });
  t.equal(bot.headers['x-cache'], 'MISS', 'a bot gets its own render');
  t.equal(
    bot.body,
    (await get('/asdas?page=1')).body,
    "the same page as a person's: a shared cache may hand out either",
  );
  t.equal(pageStateOf(bot.body).runtime.isBot, undefined, 'the browser tells a crawler (client/lib/bot-visitor.ts)');
  const encoded = await get('/asdas?page=%31');
  t.same(
    [encoded.statusCode, encoded.headers.location],
    [301, '/asdas?page=1'],
    'one address per value, however encoded',
  );

  const size = (await pageCacheGauges(app))?.entries;
  for (const url of ['/asdas?x=1', '/asdas?x=1', '/asdas?page=1&utm_source=mail', '/bonus?page=1', '/th?z=1']) {
    const response = await get(url);
    t.equal(response.statusCode, 200, `${url}: served`);
    t.equal(response.headers['x-cache'], 'MISS', `${url}: a parameter the page does not read: rendered, never kept`);
  }
  t.equal((await pageCacheGauges(app))?.entries, size, 'nothing was stored for them');

  // The home page offers Thai to a browser preferring it: a cached English home never stops that.
  t.equal((await get('/')).statusCode, 200);
  t.equal((await get('/')).headers['x-cache'], 'HIT');
  const prefersThai = await get('/', { 'accept-language': 'th-TH,th;q=0.9' });
  t.equal(prefersThai.statusCode, 302);
  t.equal(prefersThai.headers.location, '/th');
  const chose = await get('/', { 'accept-language': 'th', cookie: 'lang=en' });
  t.equal(chose.statusCode, 200, 'a chosen language stays');
  t.match(chose.body, /<html lang="en"/);
});

t.test('a logged-in render never reaches an anonymous visitor, and never comes from the cache', async (t) => {
  const form = new URLSearchParams({
    email: 'cache-leak@example.com',
    displayName: 'Leaky Larissa',
    password: 'a long passphrase 42',
    acceptTerms: 'on',
    confirmAge: 'on',
  }).toString();
  const registered = await app.inject({
    method: 'POST',
    url: '/registration',
    headers: {
      origin: 'http://localhost:3000',
      host: 'localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': browserUserAgent,
    },
    payload: form,
  });
  t.equal(registered.statusCode, 303);
  const token = registered.cookies.find((cookie) => cookie.name === 'token')!.value;

  const anonymousFirst = await get('/th/bonus');
  t.equal(anonymousFirst.headers['x-cache'], 'MISS');
  for (const url of ['/th/bonus', '/th/bonus/_payload.json', '/th/terms-apply']) {
    const mine = await get(url, { cookie: `token=${token}` });
    t.equal(mine.statusCode, 200);
    t.equal(mine.headers['x-cache'], 'MISS', `${url}: a logged-in visit is rendered for them`);
    if (!url.endsWith('.json')) t.match(mine.body, /Leaky Larissa/, 'with their name');
    t.notOk(mine.headers.etag && !url.endsWith('.json'), 'no page-cache ETag');
  }
  const bearer = await get('/th/bonus', { authorization: `Bearer ${token}` });
  t.equal(bearer.headers['x-cache'], 'MISS', 'an Authorization header: not from the cache');

  for (const url of ['/th/bonus', '/th/terms-apply']) {
    const anonymous = await get(url);
    t.notMatch(anonymous.body, /Leaky Larissa/, `${url}: the anonymous page never shows the name`);
  }
  t.equal((await get('/th/terms-apply')).headers['x-cache'], 'HIT', 'stored from the anonymous render only');
});

t.test('a render for a user is never stored, however the user was resolved', async (t) => {
  // A page that is the same for everybody but the header's name; a URL no other test has cached.
  const url = '/th/play-responsibility';
  const mine = await get(url, { 'x-stand-in-user': '1' });
  t.equal(mine.statusCode, 200);
  t.equal(mine.headers['x-cache'], 'MISS');
  t.match(mine.body, /Stand-in Stanislaw/, 'rendered for the user');

  const anonymous = await get(url);
  t.equal(anonymous.headers['x-cache'], 'MISS', 'the first anonymous visit is rendered: nothing was stored');
  t.notMatch(anonymous.body, /Stand-in|stand-in@example\.com|00000000c0de/, 'no trace of the user');
  t.equal((await get(url)).headers['x-cache'], 'HIT', 'the anonymous render is stored');
});

t.test(
  'a flash notice is shown fresh and never stored; no-store and Set-Cookie responses are never stored',
  async (t) => {
    t.equal((await get('/terms-apply')).headers['x-cache'], 'MISS');
    t.equal((await get('/terms-apply')).headers['x-cache'], 'HIT');
    const flashed = await get('/terms-apply', { cookie: 'flash=signedOut' });
    t.equal(flashed.headers['x-cache'], 'MISS', 'not served from the cache');
    t.equal(pageStateOf(flashed.body).runtime.flash, 'signedOut', 'the notice is in the page');
    t.match(String(flashed.headers['set-cookie']), /flash=;/, 'and cleared');
    const after = await get('/terms-apply');
    t.equal(after.headers['x-cache'], 'HIT');
    t.equal(pageStateOf(after.body).runtime.flash, undefined, 'the next visitor sees no notice');

    for (let i = 0; i < 2; i++) {
      const link = await get('/reset-password?token=not-a-real-token');
      t.match(link.headers['cache-control'], /no-store/);
      t.equal(link.headers['x-cache'], 'MISS', 'no-store pages are never kept');
    }
    for (let i = 0; i < 2; i++) {
      t.equal((await get('/no/such/page')).headers['x-cache'], 'MISS', 'errors are never kept');
    }
  },
);

t.test('a content reload drops every entry', async (t) => {
  await get('/asdas/rtp-explained');
  t.equal((await get('/asdas/rtp-explained')).headers['x-cache'], 'HIT');
  t.ok(((await pageCacheGauges(app))?.entries ?? 0) > 0);
  await app.content.reload();
  t.equal((await pageCacheGauges(app))?.entries, 0, 'emptied');
  t.equal((await get('/asdas/rtp-explained')).headers['x-cache'], 'MISS', 'rendered again from the new content');
});

t.test('concurrent misses for one page render it once (real HTTP)', async (t) => {
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  const requests = Array.from({ length: 12 }, () =>
    fetch(`${origin}/th/author`, { headers: { 'user-agent': browserUserAgent } }),
  );
  const responses = await Promise.all(requests);
  const results = responses.map((response) => response.headers.get('x-cache'));
  const bodies = await Promise.all(responses.map((response) => response.text()));
  t.equal(results.filter((result) => result === 'MISS').length, 1, `one render: ${results.join(' ')}`);
  t.equal(new Set(bodies).size, 1, 'everyone got the same page');
});

t.test('PAGE_CACHE_TTL_MS=0 turns it off', async (t) => {
  const off = await startTestApp({ PAGE_CACHE_TTL_MS: '0' });
  t.teardown(off.close);
  t.equal(await pageCacheGauges(off.app), undefined, 'no page cache on /metrics');
  for (let i = 0; i < 2; i++) {
    const page = await off.app.inject({ url: '/bonus', headers: { 'user-agent': browserUserAgent } });
    t.equal(page.statusCode, 200);
    t.equal(page.headers['x-cache'], undefined, 'no cache, no X-Cache');
  }
});

t.test('its bound of bytes holds: the least recently used page goes', async (t) => {
  const small = await startTestApp({}, { pageCache: { maxBytes: 60000 } });
  t.teardown(small.close);
  const visit = (url: string) => small.app.inject({ url, headers: { 'user-agent': browserUserAgent } });
  const pages = ['/asdas', '/th/asdas', '/asdas/rtp-explained'];
  for (const url of pages) t.equal((await visit(url)).headers['x-cache'], 'MISS');
  const held = (await pageCacheGauges(small.app))?.bytes ?? Infinity;
  t.ok(held <= 60000, `holds ${held} bytes`);
  t.equal((await visit('/asdas/rtp-explained')).headers['x-cache'], 'HIT', 'the latest is kept');
  t.equal((await visit('/asdas')).headers['x-cache'], 'MISS', 'the oldest was evicted');
});
