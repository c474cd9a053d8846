import t from 'tap';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchError } from 'ofetch';
import {
  API_BASE,
  RETRY_STATUS_CODES,
  TOKEN_COOKIE,
  api,
  createApiClient,
  isOwnApiRequest,
  readCookie,
  retriesFor,
} from '../../client/lib/api-client.ts';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

/** A real local HTTP server: `/api/status/<code>` answers that code, `/api/flaky/<n>` fails n times with 503, `/api/drop` kills the socket. */
async function startServer(): Promise<{
  server: Server;
  origin: string;
  seen: Seen[];
  count: (method: string, path: string) => number;
}> {
  const seen: Seen[] = [];
  const flaky = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    const url = req.url ?? '/';
    seen.push({ method: req.method ?? '', url, authorization: req.headers.authorization });
    req.resume();
    const status = /^\/api\/status\/(\d{3})/.exec(url);
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ statusCode: Number(status[1]) }));
      return;
    }
    const flakyMatch = /^\/api\/flaky\/(\d+)\/(\w+)/.exec(url);
    if (flakyMatch) {
      const key = flakyMatch[2]!;
      const failures = flaky.get(key) ?? 0;
      if (failures < Number(flakyMatch[1])) {
        flaky.set(key, failures + 1);
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"statusCode":503}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, attempt: failures + 1 }));
      return;
    }
    if (url.startsWith('/api/drop')) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, url, authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    seen,
    count: (method, path) => seen.filter((s) => s.method === method && s.url === path).length,
  };
}

/** The statusCode of the FetchError the call rejected with (fails the test when it resolves). */
async function failedStatus(p: Promise<unknown>): Promise<number | undefined | 'resolved'> {
  return p.then(
    () => 'resolved' as const,
    (e: unknown) => (e instanceof FetchError ? e.statusCode : undefined),
  );
}

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

t.test('constants', async (t) => {
  t.equal(API_BASE, '/api');
  t.equal(TOKEN_COOKIE, 'token');
  t.same(RETRY_STATUS_CODES, [408, 409, 425, 429, 500, 502, 503, 504]);
  t.equal(retriesFor('GET'), 1);
  t.equal(retriesFor('get'), 1);
  t.equal(retriesFor(undefined), 1);
  t.equal(retriesFor('HEAD'), 1);
  t.equal(retriesFor('OPTIONS'), 1);
  for (const m of ['POST', 'put', 'Patch', 'DELETE']) t.equal(retriesFor(m), 0, m);
});

t.test('readCookie', async (t) => {
  const cases: Array<[string | null | undefined, string | undefined]> = [
    ['token=abc', 'abc'],
    ['a=1; token=abc; b=2', 'abc'],
    ['a=1;token=abc', 'abc'],
    ['  token = spaced  ', 'spaced'],
    ['token=a%20b%3Dc%3B', 'a b=c;'],
    ['token=%E0%B8%97%E0%B8%94', 'ทด'],
    ['token=%ZZbad', '%ZZbad'],
    ['token="quoted%2Fvalue"', 'quoted/value'],
    ['token=a=b=c', 'a=b=c'],
    ['token=', ''],
    ['xtoken=1; tokens=2; Token=3', undefined],
    ['xtoken=1; token=2', '2'],
    ['token=first; token=second', 'first'],
    ['garbage; token=ok', 'ok'],
    ['', undefined],
    [null, undefined],
    [undefined, undefined],
  ];
  for (const [header, expected] of cases) {
    t.equal(readCookie(header, 'token'), expected, JSON.stringify(header));
  }
});

t.test('isOwnApiRequest', async (t) => {
  t.equal(isOwnApiRequest('/auth/me', '/api'), true);
  t.equal(isOwnApiRequest('auth/me', '/api'), true);
  t.equal(isOwnApiRequest('https://evil.com/x', '/api'), false, 'absolute URL, no known origin');
  t.equal(isOwnApiRequest('https://site.example/api/x', '/api', 'https://site.example'), true);
  t.equal(isOwnApiRequest('https://evil.com/api/x', '/api', 'https://site.example'), false);
  t.equal(isOwnApiRequest('//evil.com/api/x', '/api', 'https://site.example'), false);
  t.equal(isOwnApiRequest('http://127.0.0.1:1/api/x', 'http://127.0.0.1:1/api'), true);
  t.equal(isOwnApiRequest('http://127.0.0.1:2/api/x', 'http://127.0.0.1:1/api'), false);
  t.equal(isOwnApiRequest(new Request('http://evil.com/x'), 'http://127.0.0.1:1/api'), false);
});

t.test('retries against a real server, per status and method', async (t) => {
  const { server, origin, count } = await startServer();
  t.teardown(() => server.close());
  const client = createApiClient({ baseURL: `${origin}/api`, getToken: () => undefined });

  const retryable = [...RETRY_STATUS_CODES];
  const notRetryable = [400, 401, 403, 404, 405, 410, 422, 501, 505];
  for (const status of [...retryable, ...notRetryable]) {
    for (const method of METHODS) {
      const path = `/api/status/${status}`;
      const before = count(method, path);
      const error = await client(`/status/${status}`, { method, body: SAFE.has(method) ? undefined : { a: 1 } }).then(
        () => null,
        (e: unknown) => e,
      );
      t.ok(error instanceof FetchError, `${method} ${status} rejects with FetchError`);
      t.equal((error as FetchError).statusCode, status, `${method} ${status}: statusCode`);
      const expected = retryable.includes(status) && SAFE.has(method) ? 2 : 1;
      t.equal(count(method, path) - before, expected, `${method} ${status}: ${expected} attempt(s)`);
    }
  }
});

t.test('the headline cases', async (t) => {
  const { server, origin, count } = await startServer();
  t.teardown(() => server.close());
  const client = createApiClient({ baseURL: `${origin}/api`, getToken: () => 'tok' });

  t.equal(await failedStatus(client('/status/503')), 503);
  t.equal(count('GET', '/api/status/503'), 2, 'GET 503: retried exactly once');
  t.equal(await failedStatus(client('/status/503', { method: 'POST', body: { x: 1 } })), 503);
  t.equal(count('POST', '/api/status/503'), 1, 'POST 503: not retried');
  for (const status of [400, 401, 404]) {
    t.equal(await failedStatus(client(`/status/${status}`)), status);
    t.equal(count('GET', `/api/status/${status}`), 1, `GET ${status}: not retried`);
  }
  const ok = await client<{ ok: boolean }>('/hello');
  t.same(ok.ok, true);
  t.equal(count('GET', '/api/hello'), 1, '200: one request');
});

t.test('retry then success, network failures, caller overrides', async (t) => {
  const { server, origin, count } = await startServer();
  t.teardown(() => server.close());
  const client = createApiClient({ baseURL: `${origin}/api`, getToken: () => undefined });

  const data = await client<{ ok: boolean; attempt: number }>('/flaky/1/a');
  t.same(data, { ok: true, attempt: 2 }, 'GET succeeds on the retry');
  t.equal(await failedStatus(client('/flaky/2/b')), 503, 'two failures: only one retry');
  t.equal(count('GET', '/api/flaky/2/b'), 2);

  await t.rejects(client('/drop'), FetchError);
  t.equal(count('GET', '/api/drop'), 2, 'network failure: GET retried once');
  await t.rejects(client('/drop', { method: 'POST', body: {} }), FetchError);
  t.equal(count('POST', '/api/drop'), 1, 'network failure: POST not retried');

  t.equal(await failedStatus(client('/status/500', { retry: 3 })), 500);
  t.equal(count('GET', '/api/status/500'), 4, 'explicit retry: 3 is honoured');
  t.equal(await failedStatus(client('/status/502', { retry: false })), 502);
  t.equal(count('GET', '/api/status/502'), 1, 'retry: false is honoured');
  t.equal(await failedStatus(client('/status/504', { method: 'PUT', retry: 1, body: {} })), 504);
  t.equal(count('PUT', '/api/status/504'), 2, 'explicit retry on a mutation is honoured');
});

t.test('Authorization header', async (t) => {
  const { server, origin, seen } = await startServer();
  const other = await startServer();
  t.teardown(() => {
    server.close();
    other.server.close();
  });

  let token: string | undefined = 'abc.DEF-123_~+/=';
  let reads = 0;
  const client = createApiClient({
    baseURL: `${origin}/api`,
    getToken: () => {
      reads++;
      return token;
    },
  });

  await client('/echo');
  t.equal(seen.at(-1)!.authorization, 'Bearer abc.DEF-123_~+/=', 'token present: bearer header');
  t.equal(reads, 1);

  token = 'second';
  await client('/echo');
  t.equal(seen.at(-1)!.authorization, 'Bearer second', 'token read before every request');

  token = undefined;
  await client('/echo');
  t.equal(seen.at(-1)!.authorization, undefined, 'no token: no header');
  token = '';
  await client('/echo');
  t.equal(seen.at(-1)!.authorization, undefined, 'empty token: no header');
  token = 'bad\ntoken';
  await client('/echo');
  t.equal(seen.at(-1)!.authorization, undefined, 'token with a newline is not sent');
  token = 'has space';
  await client('/echo');
  t.equal(seen.at(-1)!.authorization, undefined, 'token with a space is not sent');

  token = 'retry-token';
  reads = 0;
  await t.rejects(client('/status/503'));
  const last2 = seen.slice(-2);
  t.same(
    last2.map((s) => s.authorization),
    ['Bearer retry-token', 'Bearer retry-token'],
    'the retry carries the token too',
  );
  t.equal(reads, 2, 'read again before the retry');

  await client(`${origin}/api/echo`);
  t.equal(seen.at(-1)!.authorization, 'Bearer retry-token', 'absolute URL on our API origin gets the token');
  await client(`${other.origin}/api/echo`);
  t.equal(other.seen.at(-1)!.authorization, undefined, 'another origin never gets the token');

  await client('/echo', { headers: { authorization: 'Basic xyz' } });
  t.equal(seen.at(-1)!.authorization, 'Basic xyz', "caller's own Authorization is kept");

  let theirs = 0;
  await client('/echo', {
    onRequest: () => {
      theirs++;
    },
  });
  t.equal(theirs, 1, "caller's onRequest runs");
  t.equal(seen.at(-1)!.authorization, 'Bearer retry-token', 'and does not replace ours');

  const raw = await client.raw('/echo');
  t.equal(raw.status, 200);
  t.equal(seen.at(-1)!.authorization, 'Bearer retry-token', 'raw() too');

  const child = client.create({ headers: { 'x-extra': '1' } });
  await child('/echo');
  t.equal(seen.at(-1)!.authorization, 'Bearer retry-token', 'create() keeps the hook');

  const throwing = createApiClient({
    baseURL: `${origin}/api`,
    getToken: () => {
      throw new Error('cookie jar broken');
    },
  });
  await throwing('/echo');
  t.equal(seen.at(-1)!.authorization, undefined, 'a throwing token reader sends no header');
});

t.test('injected fetch is used', async (t) => {
  const urls: string[] = [];
  const client = createApiClient({
    baseURL: 'http://api.invalid/api',
    getToken: () => 't1',
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      urls.push(String(input));
      t.equal(new Headers(init?.headers).get('authorization'), 'Bearer t1');
      return new Response('{"ok":1}', { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  t.same(await client('/x', { query: { a: 'b c' } }), { ok: 1 });
  t.same(urls, ['http://api.invalid/api/x?a=b+c']);
});

t.test('the browser singleton: base /api and the token cookie from document.cookie', async (t) => {
  const { server, origin, seen } = await startServer();
  const g = globalThis as unknown as { document?: { cookie: string }; fetch: typeof fetch };
  const realFetch = g.fetch;
  const hadDocument = 'document' in globalThis;
  t.teardown(() => {
    server.close();
    g.fetch = realFetch;
    if (!hadDocument) delete g.document;
  });
  // Node's fetch needs absolute URLs: resolve relative ones against the test server, as a browser would.
  g.fetch = (input: string | URL | Request, init?: RequestInit) =>
    realFetch(typeof input === 'string' ? new URL(input, origin) : input, init);

  g.document = { cookie: 'lang=th; token=abc%2Edef%3D%3D; other=1' };
  const body = await api<{ url: string; authorization: string | null }>('/auth/me');
  t.equal(body.url, '/api/auth/me', 'base /api');
  t.equal(body.authorization, 'Bearer abc.def==', 'URL-encoded cookie value decoded');

  g.document.cookie = 'lang=th';
  await api('/auth/me');
  t.equal(seen.at(-1)!.authorization, undefined, 'logged out: no header');

  g.document.cookie = 'token=new-token';
  t.equal(await failedStatus(api('/status/503')), 503);
  t.equal(seen.filter((s) => s.url === '/api/status/503').length, 2, 'singleton GET 503 retried once');
  t.equal(seen.at(-1)!.authorization, 'Bearer new-token');
  t.equal(await failedStatus(api('/status/503', { method: 'DELETE' })), 503);
  t.equal(
    seen.filter((s) => s.url === '/api/status/503' && s.method === 'DELETE').length,
    1,
    'singleton DELETE 503 not retried',
  );
});
