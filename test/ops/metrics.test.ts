/**
 * Prometheus metrics: what an operator scraping METRICS_PORT sees after real traffic, on each
 * database; never on the public port; and the compiled server's own listener.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import { startTestApp } from '../helpers/app.ts';
import { createTestDatabase, testBackends } from '../helpers/database.ts';

/** `name{labels} value` lines of the text format, as [series, value]. */
function samples(text: string): Map<string, number> {
  const map = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    map.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return map;
}

/** The value of the one series whose name and labels match (labels in any order). */
function value(all: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const [series, sample] of all) {
    const [seriesName, rest = ''] = series.split('{');
    if (seriesName !== name) continue;
    if (Object.entries(labels).every(([key, wanted]) => rest.includes(`${key}="${wanted}"`))) return sample;
  }
  return undefined;
}

async function scrape(url: string): Promise<{ text: string; all: Map<string, number>; type: string | null }> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`metrics answered ${response.status}: ${text}`);
  return { text, all: samples(text), type: response.headers.get('content-type') };
}

t.test('request, SSR, rate-limit and process metrics after real traffic', async (t) => {
  const { app, close } = await startTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '2' });
  t.teardown(close);
  const url = await app.metrics.listen('127.0.0.1', 0);
  const unique = `no-such-page-${randomBytes(4).toString('hex')}`;

  const browser = { accept: 'text/html' };
  t.equal((await app.inject({ url: '/asdas/rtp-explained', headers: browser })).statusCode, 200);
  t.equal((await app.inject({ url: '/asdas/rtp-explained', headers: browser })).statusCode, 200);
  t.equal((await app.inject({ url: '/asdas/_payload.json' })).statusCode, 200);
  t.equal((await app.inject({ url: `/guides/${unique}`, headers: browser })).statusCode, 404);
  t.equal((await app.inject({ url: '/api/auth/me' })).statusCode, 401);
  const logins = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    logins.push(
      (
        await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '10.9.0.1',
          payload: { email: 'a@example.com', password: 'wrong password' },
        })
      ).statusCode,
    );
  }
  t.same(logins, [401, 401, 429]);

  const { text, all, type } = await scrape(url);
  t.match(type, /^text\/plain; version=0\.0\.4/, 'the Prometheus text format');
  t.equal(
    value(all, 'http_requests_total', { route: 'page:article', method: 'GET', status_class: '2xx' }),
    2,
    'pages by page, not by URL',
  );
  t.equal(value(all, 'http_requests_total', { route: '/*/_payload.json', method: 'GET', status_class: '2xx' }), 1);
  t.equal(
    value(all, 'http_requests_total', { route: '/api/auth/me', method: 'GET', status_class: '4xx' }),
    1,
    'API routes by pattern',
  );
  t.equal(value(all, 'http_requests_total', { route: '/api/auth/login', method: 'POST', status_class: '4xx' }), 3);
  t.equal(
    value(all, 'http_requests_total', { route: 'page:content', method: 'GET', status_class: '4xx' }),
    1,
    'a missing page: its page and status class, whatever its path',
  );
  t.notMatch(text, unique, 'never a raw URL');
  t.notMatch(text, /rtp-explained/, 'never a slug');
  t.equal(
    value(all, 'http_request_duration_seconds_count', { route: 'page:article', method: 'GET', status_class: '2xx' }),
    2,
  );
  t.ok(
    value(all, 'http_request_duration_seconds_bucket', { route: 'page:article', le: '+Inf' }),
    'a histogram with buckets',
  );
  // The second visit came from the page cache: counted as a request of its page, not rendered.
  t.equal(
    value(all, 'ssr_render_duration_seconds_count', { kind: 'document', page: 'article' }),
    1,
    'SSR render time per page',
  );
  t.equal(value(all, 'ssr_render_duration_seconds_count', { kind: 'payload' }), 1);
  // Anonymous page requests: the article twice (a miss, then a hit), the payload and the 404 page (misses).
  t.equal(value(all, 'page_cache_requests_total', { result: 'hit' }), 1, 'page-cache hits');
  t.equal(value(all, 'page_cache_requests_total', { result: 'miss' }), 3, 'page-cache misses');
  t.ok((value(all, 'page_cache_bytes') ?? 0) > 0, 'the bytes the cache holds');
  t.equal(value(all, 'rate_limit_refusals_total', { limit: 'login-ip' }), 1, 'the refused login is counted');
  t.equal(value(all, 'rate_limit_store_degraded'), undefined, 'no Redis, no store gauge');
  t.equal(value(all, 'http_requests_shed_total'), undefined, 'nothing shed yet (no sample until a shed)');
  for (const name of [
    'nodejs_eventloop_lag_p99_seconds',
    'nodejs_eventloop_utilization',
    'process_cpu_user_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
  ]) {
    t.ok(value(all, name) !== undefined, `${name} (default process metrics and the event loop)`);
  }
  const utilization = value(all, 'nodejs_eventloop_utilization')!;
  t.ok(utilization >= 0 && utilization <= 1, `event-loop utilisation ${utilization}`);

  const publicPort = await app.inject({ url: '/metrics' });
  t.equal(publicPort.statusCode, 404, 'not on the public port');
  t.notMatch(publicPort.body, /http_requests_total/);
  t.equal((await fetch(url.replace('/metrics', '/other'))).status, 404, 'the metrics listener serves /metrics only');
});

for (const backend of testBackends()) {
  t.test(`database query time and pool use (${backend})`, async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'asdas-metrics-'));
    const database = backend === 'postgres' ? await createTestDatabase('postgres') : undefined;
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATA_DIR: join(dataDir, 'db'),
      PLAY_SECRET: 'p'.repeat(32),
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...(database ? { DATABASE_URL: database.url! } : {}),
    });
    // The database plugin opens the database itself, as in production, so its queries are timed.
    const app: FastifyInstance = await buildApp({
      config,
      logger: createLogger('silent'),
      accounts: { passwordHashing: testHashing },
    });
    t.teardown(async () => {
      await app.close();
      await database?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const url = await app.metrics.listen('127.0.0.1', 0);
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'metrics@example.com',
        password: 'correct horse battery staple',
        displayName: 'M',
        locale: 'en',
        acceptTerms: true,
        confirmAge: true,
      },
    });
    t.equal(registered.statusCode, 201);
    const { all } = await scrape(url);
    const queries = value(all, 'db_query_duration_seconds_count', { backend, outcome: 'ok' });
    t.ok(queries && queries >= 3, `${queries} queries timed`);
    if (backend === 'postgres') {
      t.equal(value(all, 'db_pool_connections', { state: 'max' }), 10);
      t.ok(value(all, 'db_pool_connections', { state: 'total' })! >= 1, 'open connections');
      t.equal(value(all, 'db_pool_connections', { state: 'waiting' }), 0);
    } else {
      t.equal(value(all, 'db_pool_connections'), undefined, 'SQLite has no pool');
    }
  });
}

t.test('METRICS_PORT: checked, never the public port', async (t) => {
  t.throws(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' }), { message: /METRICS_PORT must differ from PORT/ });
  t.throws(() => loadConfig({ METRICS_PORT: 'ninety' }), ConfigError);
  t.throws(() => loadConfig({ METRICS_PORT: 'ninety' }), {
    message: /METRICS_PORT must be an integer from 0 to 65535/,
  });
  t.equal(loadConfig({}).metricsPort, 9464, 'on by default');
  t.equal(
    loadConfig({ HOST: '10.1.2.3' }).metricsHost,
    '127.0.0.1',
    'on the loopback interface unless METRICS_HOST says otherwise',
  );
  t.equal(
    loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost,
    '0.0.0.0',
    'a scraper on another host needs METRICS_HOST',
  );
});

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

t.test('the compiled server serves them on METRICS_PORT', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-metrics-proc-'));
  const metricsPort = await freePort();
  const child = spawn(process.execPath, [resolve(import.meta.dirname, '../../dist/node/server.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: String(metricsPort),
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHUTDOWN_DRAIN_MS: '0',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  let output = '';
  const metricsUrl = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"/.exec(output)?.[1];
      if (url) done(url);
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    void exited.then(() => fail(new Error(`exited before serving metrics:\n${output}`)));
  });
  t.equal(metricsUrl, `http://127.0.0.1:${metricsPort}/metrics`);
  const site = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
  t.ok(site, 'the site listens too');
  t.equal((await fetch(`${site}/healthz`)).status, 200);
  const { all } = await scrape(metricsUrl);
  t.equal(value(all, 'http_requests_total', { route: '/healthz', status_class: '2xx' }), 1);
  t.ok(value(all, 'db_query_duration_seconds_count', { backend: 'sqlite' }), 'the migrations were timed');
  t.equal((await fetch(`${site}/metrics`)).status, 404, 'not on the site port');
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'stops cleanly with the metrics listener open');
});
