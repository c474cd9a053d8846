import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../app.ts';
import type { IconsPluginOptions } from '../../plugins/app/icons.ts';
import { ICON_CACHE_CONTROL } from '../../routes/api/icons.ts';
import { testConfig } from '../helpers/app.ts';

/**
 * A stand-in for the Iconify API on a real socket. The collection in the path picks the behaviour:
 *   fake     answers the icons it knows (star, moon, sun, and sun-alias → sun), not_found for the rest
 *   delayed  like fake, 200 ms later (to overlap concurrent requests)
 *   slow     answers after 3 s (longer than the 1500 ms timeout)
 *   broken   HTTP 500
 *   garbage  HTTP 200 with a body that is not JSON
 *   stranger HTTP 200 with an icon set for another prefix
 *   nope     HTTP 404 with the body `404` (what the Iconify API says for an unknown prefix)
 *   nope200  HTTP 200 with the body `404`
 */
const fakeIcons: Record<string, { body: string }> = {
  star: { body: '<path d="M1 1h1"/>' },
  moon: { body: '<path d="M2 2h2"/>' },
  sun: { body: '<circle r="3"/>' },
};

let calls: string[] = [];
/** How many times the slow upstream has finished answering (it takes 3 s). */
let slowAnswers = 0;
const timers = new Set<NodeJS.Timeout>();

function answerIcons(prefix: string, url: URL, response: ServerResponse): void {
  const names = (url.searchParams.get('icons') ?? '').split(',');
  const iconsOut: Record<string, { body: string }> = {};
  const aliases: Record<string, { parent: string }> = {};
  const notFound: string[] = [];
  for (const name of names) {
    if (name === 'sun-alias') {
      aliases[name] = { parent: 'sun' };
      iconsOut.sun = fakeIcons.sun!;
    } else if (fakeIcons[name]) iconsOut[name] = fakeIcons[name];
    else notFound.push(name);
  }
  const body = {
    prefix,
    lastModified: 1700000000,
    aliases,
    width: 16,
    height: 16,
    icons: iconsOut,
    not_found: notFound,
  };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function later(ms: number, run: () => void): void {
  const timer = setTimeout(() => {
    timers.delete(timer);
    run();
  }, ms);
  timers.add(timer);
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  calls.push(request.url ?? '');
  const url = new URL(request.url ?? '/', 'http://upstream');
  const collection = url.pathname.replace(/^\/(prefixed\/)?/, '').replace(/\.json$/, '');
  switch (collection) {
    case 'fake':
      return answerIcons('fake', url, response);
    case 'delayed':
      return later(200, () => answerIcons('delayed', url, response));
    case 'slow':
      return later(3000, () => {
        slowAnswers += 1;
        answerIcons('slow', url, response);
      });
    case 'broken':
      response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
      return;
    case 'garbage':
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"prefix": "garbage", "icons": {');
      return;
    case 'stranger':
      return answerIcons('someone-else', url, response);
    case 'nope200':
      response.writeHead(200, { 'content-type': 'application/json' }).end('404');
      return;
    default:
      response.writeHead(404, { 'content-type': 'application/json' }).end('404');
  }
}

const upstream: Server = createServer(handle);
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
t.teardown(async () => {
  for (const timer of timers) clearTimeout(timer);
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** The service with its icons only (no database, content, builds or pages). */
async function buildIconsApp(url = upstreamUrl, icons: IconsPluginOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({ ICON_UPSTREAM_URL: url }),
    without: ['accounts', 'content', 'builds', 'pages'],
    icons,
  });
  await app.ready();
  return app;
}

t.beforeEach(() => {
  calls = [];
});

t.test('a set that is not installed comes from the upstream, once', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());

  const first = await app.inject('/api/_nuxt_icon/fake.json?icons=star,moon');
  t.equal(first.statusCode, 200);
  const body = first.json();
  t.equal(body.prefix, 'fake');
  t.same(body.icons, { moon: fakeIcons.moon, star: fakeIcons.star });
  t.equal(body.width, 16);
  t.equal(body.lastModified, 1700000000);
  t.equal(body.not_found, undefined);
  t.same(calls, ['/fake.json?icons=moon,star'], 'asked once, with the validated names sorted');
  t.equal(first.headers['cache-control'], ICON_CACHE_CONTROL);
  t.match(first.headers.etag, /^"[A-Za-z0-9_-]+"$/);

  const again = await app.inject('/api/_nuxt_icon/fake.json?icons=moon,star');
  t.equal(again.statusCode, 200);
  t.equal(again.body, first.body);
  t.equal(again.headers.etag, first.headers.etag);
  t.equal(calls.length, 1, 'the second request is answered from the cache');

  const notModified = await app.inject({
    url: '/api/_nuxt_icon/fake.json?icons=star,moon',
    headers: { 'if-none-match': first.headers.etag as string },
  });
  t.equal(notModified.statusCode, 304);
  t.equal(notModified.body, '');
  t.equal(calls.length, 1);
});

t.test('upstream aliases, unknown icons and unknown icon lists', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());

  const alias = await app.inject('/api/_nuxt_icon/fake.json?icons=sun-alias,nothing-here');
  t.equal(alias.statusCode, 200);
  t.same(alias.json().aliases, { 'sun-alias': { parent: 'sun' } });
  t.same(alias.json().icons, { sun: fakeIcons.sun });
  t.same(alias.json().not_found, ['nothing-here']);

  const none = await app.inject('/api/_nuxt_icon/fake.json?icons=nothing-here');
  t.equal(none.statusCode, 404);
  t.equal(none.json().code, 'ICONS_NOT_FOUND');
  t.equal(none.headers['cache-control'], 'no-store');
  t.equal(calls.length, 2);

  const noneAgain = await app.inject('/api/_nuxt_icon/fake.json?icons=nothing-here');
  t.equal(noneAgain.statusCode, 404);
  t.equal(calls.length, 2, 'a "not found" answer is remembered for a while');
});

t.test('an unknown collection upstream is a 404 JSON error', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  for (const collection of ['nope', 'nope200']) {
    const res = await app.inject(`/api/_nuxt_icon/${collection}.json?icons=home`);
    t.equal(res.statusCode, 404, `${collection}: status`);
    t.same(res.json(), {
      statusCode: 404,
      code: 'ICON_COLLECTION_NOT_FOUND',
      message: `No icon collection named ${collection}`,
    });
    t.equal(res.headers['cache-control'], 'no-store');
  }
  t.same(calls, ['/nope.json?icons=home', '/nope200.json?icons=home']);
});

t.test('a slow upstream is cut at 1500 ms with a 504, and the server stays healthy', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answersBefore = slowAnswers;
  const started = performance.now();
  const res = await app.inject('/api/_nuxt_icon/slow.json?icons=star');
  const elapsed = performance.now() - started;
  t.equal(res.statusCode, 504);
  t.same(res.json(), {
    statusCode: 504,
    code: 'ICON_UPSTREAM_TIMEOUT',
    message: 'The icon service did not answer in time.',
  });
  t.equal(res.headers['cache-control'], 'no-store');
  // A lower bound only: a loaded machine makes everything later, never earlier.
  t.ok(elapsed >= 1400, `waited for the timeout (${Math.round(elapsed)} ms)`);
  t.equal(slowAnswers, answersBefore, 'answered by the timeout, before the upstream (3 s) had answered');

  const health = await app.inject('/healthz');
  t.equal(health.statusCode, 200);
  const local = await app.inject('/api/_nuxt_icon/mdi.json?icons=home');
  t.equal(local.statusCode, 200);
  const remote = await app.inject('/api/_nuxt_icon/fake.json?icons=star');
  t.equal(remote.statusCode, 200);

  const retry = await app.inject('/api/_nuxt_icon/slow.json?icons=star');
  t.equal(retry.statusCode, 504);
  t.equal(calls.filter((url) => url.startsWith('/slow.json')).length, 2, 'a timeout is not cached');
});

t.test('an upstream 500 is a 502, and is not cached', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  for (let attempt = 1; attempt <= 2; attempt++) {
    const res = await app.inject('/api/_nuxt_icon/broken.json?icons=star');
    t.equal(res.statusCode, 502);
    t.same(res.json(), {
      statusCode: 502,
      code: 'ICON_UPSTREAM_FAILED',
      message: 'The icon service failed to answer.',
    });
    t.equal(res.headers['cache-control'], 'no-store');
    t.equal(res.headers.etag, undefined);
    t.equal(calls.length, attempt, 'each request asks the upstream again');
  }
});

t.test('invalid JSON or a set for another prefix from the upstream is a 502', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  for (const collection of ['garbage', 'stranger']) {
    const res = await app.inject(`/api/_nuxt_icon/${collection}.json?icons=star`);
    t.equal(res.statusCode, 502, `${collection}: status`);
    t.equal(res.json().code, 'ICON_UPSTREAM_FAILED', `${collection}: code`);
  }
  t.equal(calls.length, 2);
});

t.test('an upstream that refuses connections is a 502', async (t) => {
  // Take a free port, then close it so that nothing listens there.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  const app = await buildIconsApp(`http://127.0.0.1:${port}`);
  t.teardown(() => app.close());
  const res = await app.inject('/api/_nuxt_icon/fake.json?icons=star');
  t.equal(res.statusCode, 502);
  t.equal(
    res.json().code,
    'ICON_UPSTREAM_FAILED',
    'the refusal itself, not the 1500 ms timeout (that would be 504 ICON_UPSTREAM_TIMEOUT)',
  );
  t.equal((await app.inject('/api/_nuxt_icon/mdi.json?icons=home')).statusCode, 200, 'local sets still work');
});

t.test('10 concurrent identical requests share one upstream call', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => app.inject('/api/_nuxt_icon/delayed.json?icons=star,moon')),
  );
  t.same(calls, ['/delayed.json?icons=moon,star']);
  t.same(
    answers.map((res) => res.statusCode),
    Array.from({ length: 10 }, () => 200),
  );
  t.equal(new Set(answers.map((res) => res.body)).size, 1, 'all get the same body');
  t.same(answers[0]!.json().icons, { moon: fakeIcons.moon, star: fakeIcons.star });
});

t.test('concurrent requests share a failure too, and the next request tries again', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answers = await Promise.all(
    Array.from({ length: 5 }, () => app.inject('/api/_nuxt_icon/slow.json?icons=moon')),
  );
  t.same(
    answers.map((res) => res.statusCode),
    [504, 504, 504, 504, 504],
  );
  t.equal(calls.length, 1, 'one upstream call for the five');
  t.equal((await app.inject('/api/_nuxt_icon/slow.json?icons=moon')).statusCode, 504);
  t.equal(calls.length, 2, 'the failure was not kept: the next request asked again');
});

t.test('the response cache is bounded (least recently used goes first)', async (t) => {
  const app = await buildIconsApp(upstreamUrl, { cacheEntries: 2 });
  t.teardown(() => app.close());
  for (const name of ['star', 'moon', 'sun', 'star']) {
    t.equal((await app.inject(`/api/_nuxt_icon/fake.json?icons=${name}`)).statusCode, 200);
  }
  t.same(
    calls,
    ['/fake.json?icons=star', '/fake.json?icons=moon', '/fake.json?icons=sun', '/fake.json?icons=star'],
    'star was evicted by sun and asked for again',
  );
  t.equal((await app.inject('/api/_nuxt_icon/fake.json?icons=sun')).statusCode, 200);
  t.equal(calls.length, 4, 'sun, recently used, is still cached');
});

t.test('an upstream URL with a path keeps it', async (t) => {
  const app = await buildIconsApp(`${upstreamUrl}/prefixed/`);
  t.teardown(() => app.close());
  const res = await app.inject('/api/_nuxt_icon/fake.json?icons=star');
  t.equal(res.statusCode, 200);
  t.same(calls, ['/prefixed/fake.json?icons=star']);
});

t.test('installed sets never ask the upstream, even for unknown icons', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  t.equal((await app.inject('/api/_nuxt_icon/mdi.json?icons=star-of-nothing')).statusCode, 404);
  t.same(calls, []);
});
