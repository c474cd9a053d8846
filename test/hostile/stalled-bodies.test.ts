/**
 * Clients that send their headers and then stall their bodies (or just hold connections open)
 * cannot take the service from everybody else: a request takes a place under
 * OVERLOAD_MAX_IN_FLIGHT only once its body has arrived, one address holds at most
 * 128 connections (plugins/app/connection-limit.ts), /readyz says so when every request has been shed for
 * a while, and a shutdown answers a stalled upload 408 instead of waiting for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { startServerProcess } from '../helpers/server-process.ts';

const origin = 'http://localhost:3000';
const pause = () => new Promise((done) => setTimeout(done, 20));

/** A gauge of the app's metrics listener: `http_requests_unfinished` (every request whose work is not done) or `http_requests_in_flight` (the places of the cap). */
async function gauge(
  metricsUrl: string,
  name: 'http_requests_unfinished' | 'http_requests_in_flight',
): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
}

/** Opens a connection and sends `bytes`; `answer` resolves with what came back once it closes. */
function open(port: number, bytes: string): { socket: Socket; answer: Promise<string>; connected: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  socket.on('error', () => {});
  const connected = new Promise<void>((done) => socket.once('connect', () => done()));
  const answer = new Promise<string>((done) => socket.on('close', () => done(text)));
  socket.write(bytes);
  return { socket, answer, connected };
}

const stalledForm =
  'POST /login HTTP/1.1\r\nHost: localhost:3000\r\nOrigin: http://localhost:3000\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=a';
const stalledJson =
  'POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":';

async function startApp(
  t: Test,
  env: Record<string, string>,
  options: { reportAfterMs?: number; connectionsPerAddress?: number } = {},
): Promise<{ app: FastifyInstance; port: number; base: string; metricsUrl: string }> {
  const database = await createTestDatabase('sqlite');
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-stalled-'));
  const app = await buildApp({
    // Per-address rate limits would answer some of the stalled requests early: out of the way.
    config: testConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      REGISTER_RATE_LIMIT_PER_MINUTE: '1000',
      ...env,
    }),
    database: { db: database.db },
    accounts: { passwordHashing: testHashing },
    overload: { reportAfterMs: options.reportAfterMs ?? 10_000 },
    connectionLimit: { max: options.connectionsPerAddress },
  });
  t.teardown(async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const metricsUrl = await app.metrics.listen('127.0.0.1', 0);
  return { app, port: Number(new URL(base).port), base, metricsUrl };
}

t.test('stalled uploads hold connections, never the places of the in-flight cap', async (t) => {
  const { port, base, metricsUrl } = await startApp(t, { OVERLOAD_MAX_IN_FLIGHT: '10' }, { connectionsPerAddress: 0 });
  const stalled = Array.from({ length: 30 }, (_, index) => open(port, index % 2 === 0 ? stalledForm : stalledJson));
  t.teardown(() => stalled.forEach(({ socket }) => socket.destroy()));
  // Every one of them has reached the app (its onRequest ran) and waits for the rest of its body.
  while ((await gauge(metricsUrl, 'http_requests_unfinished')) < 30) await pause();

  t.equal(await gauge(metricsUrl, 'http_requests_in_flight'), 0, 'none of the 30 takes a place');
  const page = await fetch(`${base}/asdas`, { headers: { accept: 'text/html' } });
  await page.text();
  t.equal(page.status, 200, 'pages are served');
  t.equal((await fetch(`${base}/api/auth/me`)).status, 401, 'the API answers');
  const ready = await fetch(`${base}/readyz`);
  t.same(await ready.json(), { status: 'ok', checks: { overload: 'ok', database: 'ok' } }, 'and the replica is ready');
});

t.test('one address holds at most its bound of open connections (128; 5 here)', async (t) => {
  const { port, base, metricsUrl } = await startApp(t, {}, { connectionsPerAddress: 5 });
  const held = Array.from({ length: 5 }, () => open(port, stalledForm));
  t.teardown(() => held.forEach(({ socket }) => socket.destroy()));
  await Promise.all(held.map(({ connected }) => connected));
  while ((await gauge(metricsUrl, 'http_requests_unfinished')) < 5) await pause();

  const refused = open(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  const answer = await refused.answer;
  t.match(answer, /^HTTP\/1\.1 429 /, 'the sixth is answered 429 and closed');
  t.match(answer, /"code":"TOO_MANY_CONNECTIONS"/);

  held[0]!.socket.destroy();
  await held[0]!.answer;
  t.equal((await fetch(`${base}/healthz`)).status, 200, 'a place given back is taken again');
});

t.test('the bound skips RATE_LIMIT_ALLOW_LIST (load generators) and trusted proxies', async (t) => {
  for (const env of [{ RATE_LIMIT_ALLOW_LIST: '127.0.0.1' }, { TRUST_PROXY: '127.0.0.1' }] as Record<
    string,
    string
  >[]) {
    const { port, base, metricsUrl } = await startApp(t, env, { connectionsPerAddress: 2 });
    const held = Array.from({ length: 4 }, () => open(port, stalledForm));
    t.teardown(() => held.forEach(({ socket }) => socket.destroy()));
    while ((await gauge(metricsUrl, 'http_requests_unfinished')) < 4) await pause();
    t.equal((await fetch(`${base}/healthz`)).status, 200, `${Object.keys(env)[0]}: a fifth connection is served`);
  }
});

t.test('/readyz fails once every request has been shed for a while, and recovers', async (t) => {
  // An icon upstream that answers only when told: the request waiting on it holds the one place.
  const waiting: Array<() => void> = [];
  const upstream = createServer((_request, response) => {
    waiting.push(() => response.writeHead(404).end());
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  t.teardown(() => upstream.close());
  const { base } = await startApp(
    t,
    { OVERLOAD_MAX_IN_FLIGHT: '1', ICON_UPSTREAM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` },
    { reportAfterMs: 300 },
  );
  const holder = fetch(`${base}/api/_nuxt_icon/heldset.json?icons=dot`);
  while (waiting.length < 1) await pause();
  t.equal((await fetch(`${base}/readyz`)).status, 200, 'full, but nothing shed yet');
  t.equal((await fetch(`${base}/api/auth/me`)).status, 503, 'a request is shed');

  let report = await fetch(`${base}/readyz`);
  while (report.status === 200) {
    await report.body?.cancel();
    await pause();
    report = await fetch(`${base}/readyz`);
  }
  t.equal(report.status, 503, 'then /readyz fails');
  t.same(await report.json(), { status: 'unavailable', checks: { overload: 'failing', database: 'ok' } });

  for (const answer of waiting.splice(0)) answer();
  await (await holder).body?.cancel();
  t.equal((await fetch(`${base}/readyz`)).status, 200, 'ready again once a place is free');
});

t.test('SIGTERM with an upload stalled: the upload is answered 408 and the process exits 0', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-stalled-proc-'));
  const server = startServerProcess({ DATA_DIR: dataDir, SHUTDOWN_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '600000' });
  t.teardown(async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const stalled = open(Number(new URL(await server.listening).port), stalledForm);
  await stalled.connected;
  // Once the server has read the headers it logs the request (its body still missing).
  await server.waitFor(/"url":"\/login"/);
  server.child.kill('SIGTERM');
  t.match(await stalled.answer, /^HTTP\/1\.1 408 /, 'the stalled upload is answered 408');
  t.equal(await server.exited, 0, 'and the process exits 0');
  t.notMatch(server.output(), /still in flight after the shutdown timeout/);
});
