/**
 * Overload shedding: while the event loop lags past OVERLOAD_MAX_EVENT_LOOP_DELAY_MS (or the heap
 * passes 90 % of V8's heap limit), pages and the API answer 503 with Retry-After at once (a
 * translated page for documents, JSON for the API and payloads); probes, assets and the metrics
 * listener keep answering; shed requests are counted; service resumes by itself.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { startTestApp } from '../helpers/app.ts';

const asset = readdirSync(resolve(import.meta.dirname, '../../dist/client/assets')).find((name) =>
  name.endsWith('.css'),
)!;
const tick = () => new Promise<void>((done) => setImmediate(done));

/** Keeps the event loop busy in 300 ms slices (a render storm, compressed) until stopped. */
function blockEventLoop(): { stop: () => Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      const end = performance.now() + 300;
      while (performance.now() < end) {
        // busy
      }
      await tick();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Resolves once `app.isUnderPressure()` says `wanted` (under-pressure samples twice a second). */
async function pressure(app: FastifyInstance, wanted: boolean): Promise<void> {
  while (app.isUnderPressure() !== wanted) await new Promise((done) => setTimeout(done, 50));
}

async function shedCount(url: string, reason: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return Number(new RegExp(`^http_requests_shed_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

/** The places taken under OVERLOAD_MAX_IN_FLIGHT, as the metrics listener shows them. */
async function inFlight(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return Number(/^http_requests_in_flight (\d+)$/m.exec(text)?.[1]);
}

t.test(
  'event-loop delay: 503 with Retry-After, translated pages, JSON for the API; probes and metrics answer',
  async (t) => {
    // Half the blocker's 300 ms slices: what a loaded test machine lags by itself stays well under it.
    const { app, logs, close } = await startTestApp({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '150', LOG_LEVEL: 'debug' });
    t.teardown(close);
    const metricsUrl = await app.metrics.listen('127.0.0.1', 0);
    t.equal(
      (await app.inject({ url: '/asdas', headers: { accept: 'text/html' } })).statusCode,
      200,
      'served while calm',
    );
    // The start's own lag is not counted: the check begins with the first sample after ready,
    // which the debug log tells.
    while (!logs.some((line) => line.msg === 'overload shedding on')) await new Promise((done) => setTimeout(done, 20));

    const blocker = blockEventLoop();
    await pressure(app, true);
    const english = await app.inject({ url: '/asdas', headers: { accept: 'text/html' } });
    const thai = await app.inject({ url: '/th/asdas/rtp-explained', headers: { accept: 'text/html' } });
    const api = await app.inject({ url: '/api/auth/me' });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@example.com', password: 'whatever1' },
    });
    const payload = await app.inject({ url: '/asdas/_payload.json' });
    const form = await app.inject({
      method: 'POST',
      url: '/th/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' },
      payload: 'email=a%40example.com&password=x',
    });
    const healthz = await app.inject({ url: '/healthz' });
    const readyz = await app.inject({ url: '/readyz' });
    const css = await app.inject({ url: `/assets/${asset}` });
    const latest = await app.inject({ url: '/builds/latest.json' });
    const shedWhileBlocked = await shedCount(metricsUrl, 'eventLoopDelay');
    await blocker.stop();

    for (const [name, response] of [
      ['English page', english],
      ['Thai page', thai],
      ['API', api],
      ['login', login],
      ['payload', payload],
      ['Thai form post', form],
    ] as const) {
      t.equal(response.statusCode, 503, `${name}: 503`);
      t.equal(response.headers['retry-after'], '5', `${name}: Retry-After`);
      t.match(response.headers['cache-control'], /^(private, )?no-store$/, `${name}: not cached`);
    }
    t.match(english.headers['content-type'], /^text\/html/);
    t.match(english.body, /<html lang="en">/);
    t.match(english.body, /The site is busy/);
    t.match(english.body, /Please try again in a few seconds/);
    t.notMatch(english.body, /<script/, 'no page code: it renders nothing');
    t.match(english.headers['content-security-policy'], /default-src 'self'/, 'security headers still set');
    t.match(thai.body, /<html lang="th">/);
    t.match(thai.body, /เว็บไซต์มีผู้ใช้งานจำนวนมาก/);
    t.match(form.body, /<html lang="th">/, 'a Thai form post gets the Thai page');
    for (const response of [api, login, payload]) {
      t.same(response.json(), {
        statusCode: 503,
        code: 'OVERLOADED',
        message: 'The service is busy. Try again in 5 seconds.',
      });
    }
    t.equal(healthz.statusCode, 200, '/healthz answers');
    t.equal(readyz.statusCode, 200, '/readyz answers (overload is not a reason to leave the load balancer)');
    t.equal(css.statusCode, 200, 'hashed assets are still served');
    t.equal(latest.statusCode, 200, 'the build manifest is still served');
    t.equal(shedWhileBlocked, 6, 'the metrics listener answered during the overload and counted every shed request');

    await pressure(app, false);
    t.equal(
      (await app.inject({ url: '/asdas', headers: { accept: 'text/html' } })).statusCode,
      200,
      'served again once the loop is calm',
    );
  },
);

t.test('in-flight cap: requests beyond OVERLOAD_MAX_IN_FLIGHT are shed until one finishes', async (t) => {
  // An icon upstream that answers only when told: the requests waiting on it stay in flight.
  const held: Array<() => void> = [];
  const upstream = createServer((_request, response) => {
    held.push(() => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ prefix: 'heldset', icons: { dot: { body: '<circle r="1"/>' } }, width: 24, height: 24 }),
      );
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  t.teardown(() => upstream.close());
  const { app, close } = await startTestApp({
    OVERLOAD_MAX_IN_FLIGHT: '2',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ICON_UPSTREAM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
  });
  t.teardown(close);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const metricsUrl = await app.metrics.listen('127.0.0.1', 0);

  const calm = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await calm.text();
  t.equal(calm.status, 200, 'served, and kept in the page cache, while calm');

  const first = fetch(`${base}/api/_nuxt_icon/heldset.json?icons=dot`);
  const second = fetch(`${base}/api/_nuxt_icon/heldset.json?icons=dot,ring`);
  while (held.length < 2) await new Promise((done) => setTimeout(done, 20));
  const third = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  t.equal(third.status, 503, 'a third request is shed while two are in flight, though its page is in the cache');
  t.equal(third.headers.get('retry-after'), '5');
  t.match(await third.text(), /The site is busy/);
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'probes are not counted or shed');
  t.equal(await shedCount(metricsUrl, 'inFlight'), 1);
  t.match(await (await fetch(metricsUrl)).text(), /^http_requests_in_flight 2$/m, 'the gauge shows the two');

  for (const release of held.splice(0)) release();
  t.same([(await first).status, (await second).status], [200, 200], 'the admitted ones finish');
  const after = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await after.text();
  t.equal(after.status, 200, 'and the next is served');
  t.equal(after.headers.get('x-cache'), 'HIT', 'from the page cache');
});

t.test('in-flight cap: a client that gives up keeps its place until its work is done', async (t) => {
  // Clients that time out and try again (a reload, a load generator) leave their requests being
  // worked on: counting them only until the connection closes let such work pile up unbounded.
  const held: Array<() => void> = [];
  const upstream = createServer((_request, response) => {
    held.push(() => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({ prefix: 'goneset', icons: { dot: { body: '<circle r="1"/>' } }, width: 24, height: 24 }),
      );
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  t.teardown(() => upstream.close());
  const { app, close } = await startTestApp({
    OVERLOAD_MAX_IN_FLIGHT: '1',
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ICON_UPSTREAM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
  });
  t.teardown(close);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const metricsUrl = await app.metrics.listen('127.0.0.1', 0);
  let closed: () => void = () => {};
  const connectionClosed = new Promise<void>((done) => (closed = done));
  app.server.once('connection', (socket) => socket.once('close', () => closed()));

  const leaving = new AbortController();
  const gone = fetch(`${base}/api/_nuxt_icon/goneset.json?icons=dot`, { signal: leaving.signal }).catch(
    (error: Error) => error.name,
  );
  while (held.length < 1) await new Promise((done) => setTimeout(done, 20));
  leaving.abort();
  t.equal(await gone, 'AbortError');
  await connectionClosed;

  const meanwhile = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await meanwhile.text();
  t.equal(meanwhile.status, 503, 'shed: the abandoned request is still being worked on');
  t.equal(await inFlight(metricsUrl), 1);

  for (const release of held.splice(0)) release();
  while ((await inFlight(metricsUrl)) > 0) await new Promise((done) => setTimeout(done, 20));
  const after = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await after.text();
  t.equal(after.status, 200, 'its place is free once its handler has answered');
  t.equal(await inFlight(metricsUrl), 0, 'and given back after the answer');
});

t.test('in-flight cap: a request whose client has already gone is not worked on', async (t) => {
  const { app, close } = await startTestApp({ OVERLOAD_MAX_IN_FLIGHT: '10', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
  t.teardown(close);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const metricsUrl = await app.metrics.listen('127.0.0.1', 0);
  /** Documents rendered so far, every page kind together. */
  const rendered = async () =>
    [
      ...(await (await fetch(metricsUrl)).text()).matchAll(
        /^ssr_render_duration_seconds_count\{kind="document"[^}]*\} (\d+)$/gm,
      ),
    ].reduce((sum, match) => sum + Number(match[1]), 0);
  const before = await rendered();
  let closed: () => void = () => {};
  const connectionClosed = new Promise<void>((done) => (closed = done));
  app.server.once('connection', (socket) => socket.once('close', () => closed()));

  // A client that sends a page request and closes at once, from another process while this one
  // (the server's) is blocked: the server then reads the request and the close together, as it
  // does for the clients that gave up while it was busy.
  const { port } = new URL(base);
  execFileSync(process.execPath, [
    '-e',
    `const s = require('net').connect(${port}, '127.0.0.1', () => s.end('GET /asdas HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: text/html\\r\\n\\r\\n')); s.on('finish', () => s.destroy());`,
  ]);
  await connectionClosed;
  while ((await shedCount(metricsUrl, 'clientGone')) < 1) await new Promise((done) => setTimeout(done, 20));
  t.equal(await rendered(), before, 'the page was not rendered for nobody');
  t.equal(await inFlight(metricsUrl), 0, 'and its place is free');

  const served = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await served.text();
  t.equal(served.status, 200, 'a client that waits is served');
  t.equal(await rendered(), before + 1);
});

t.test('heap limit: shed with its own reason', async (t) => {
  const { app, close } = await startTestApp(
    { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
    { overload: { maxHeapUsedBytes: 1 } },
  );
  t.teardown(close);
  const metricsUrl = await app.metrics.listen('127.0.0.1', 0);
  await pressure(app, true);
  const page = await app.inject({ url: '/', headers: { accept: 'text/html', 'accept-language': 'en' } });
  t.equal(page.statusCode, 503);
  t.match(page.body, /The site is busy/);
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
  t.equal(await shedCount(metricsUrl, 'heapUsedBytes'), 1);
  t.equal(await shedCount(metricsUrl, 'eventLoopDelay'), 0);
});

t.test('configuration: production defaults, 0 turns a check off', async (t) => {
  const defaults = loadConfig({});
  t.equal(defaults.overloadMaxEventLoopDelayMs, 1000, 'shed when the loop lags a second on average');
  t.equal(defaults.overloadMaxInFlight, 100, 'at most 100 pages and API requests worked on at once');
  t.equal(loadConfig({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }).overloadMaxEventLoopDelayMs, 0);
  t.throws(() => loadConfig({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '-1' }), {
    message: /OVERLOAD_MAX_EVENT_LOOP_DELAY_MS must be an integer from 0 to 60000/,
  });
  t.throws(() => loadConfig({ OVERLOAD_MAX_IN_FLIGHT: 'lots' }), {
    message: /OVERLOAD_MAX_IN_FLIGHT must be an integer from 0 to 100000 \(got "lots"\)/,
  });

  const { app, close } = await startTestApp(
    { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_MAX_IN_FLIGHT: '0' },
    { overload: { maxHeapUsedBytes: 0 } },
  );
  t.teardown(close);
  const blocker = blockEventLoop();
  // Until the sampler has measured the lag: with both checks off it never reports pressure.
  while (app.memoryUsage().eventLoopDelay < 80) await new Promise((done) => setTimeout(done, 50));
  t.notOk(app.isUnderPressure(), 'with both checks off nothing is shed');
  await blocker.stop();
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
  t.equal((await app.inject({ url: '/asdas', headers: { accept: 'text/html' } })).statusCode, 200);
});
