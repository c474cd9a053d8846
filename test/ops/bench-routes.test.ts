import { brotliDecompressSync } from 'node:zlib';
import t from 'tap';
import { registerBenchRoutes } from '../../bench/app.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// The routes `npm run bench` measures the pages against (bench/baseline-routes.ts), added to the
// site's app as the bench's server adds them (bench/app.ts): what a load tester reads off the table
// is only true if they send what the pages send.
const page = { 'user-agent': browserUserAgent, accept: 'text/html', 'accept-language': 'en' };

t.test('the site alone has no bench route', async (t) => {
  const { app, close } = await startTestApp();
  t.teardown(close);
  for (const url of ['/__bench/baseline', '/__bench/react-floor', '/__bench/process']) {
    t.equal((await app.inject({ url, headers: page })).statusCode, 404, url);
  }
});

t.test("with the bench's routes", async (t) => {
  const { app, close } = await startTestApp(
    { PAGE_CACHE_TTL_MS: '0' },
    { extraRoutes: (app) => void registerBenchRoutes(app) },
  );
  t.teardown(close);
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ url, headers: { ...page, ...headers } });

  t.test('the baseline is the home page, compressed as asked', async (t) => {
    const home = await get('/');
    const baseline = await get('/__bench/baseline');
    t.equal(baseline.statusCode, 200);
    t.equal(baseline.body, home.body, 'the same bytes as the home page');
    const compressed = await get('/__bench/baseline', { 'accept-encoding': 'br' });
    t.equal(compressed.headers['content-encoding'], 'br');
    t.equal(brotliDecompressSync(compressed.rawPayload).toString(), home.body);
  });

  t.test("the React floor of a page sends that page's bytes, rendered per request", async (t) => {
    for (const path of ['/', '/th', '/asdas/rtp-explained', '/th/asdas']) {
      const floor = await get(`/__bench/react-floor?path=${encodeURIComponent(path)}`);
      t.equal(floor.statusCode, 200, path);
      t.equal(floor.headers['content-type'], 'text/html; charset=utf-8');
      t.equal(floor.body, (await get(path)).body, `${path}: byte for byte the page`);
      const again = await get(`/__bench/react-floor?path=${encodeURIComponent(path)}`, { 'accept-encoding': 'br' });
      t.equal(again.headers['content-encoding'], 'br', 'compressed per response like an uncached page');
      t.equal(brotliDecompressSync(again.rawPayload).toString(), floor.body);
    }
    t.equal((await get('/__bench/react-floor')).body, (await get('/')).body, 'the home page by default');
  });

  t.test('a floor of something that is not a page is a clear 400', async (t) => {
    const missing = await get('/__bench/react-floor?path=/no/such/page');
    t.equal(missing.statusCode, 400);
    t.match(missing.json(), { code: 'BENCH_FLOOR_PAGE', message: /404/ });
    const notAPath = await get('/__bench/react-floor?path=https://example.com/');
    t.equal(notAPath.statusCode, 400);
    t.equal(notAPath.json().code, 'VALIDATION_FAILED');
  });

  t.test('the process figures the bench reads', async (t) => {
    const figures = (await get('/__bench/process')).json();
    t.equal(figures.pid, process.pid, 'this process');
    t.ok(figures.cpuMicros.user > 0 && figures.memoryBytes.rss > 0);
  });
});

t.test("the server the bench starts: the site's server.ts, bundled with the bench's routes", async (t) => {
  const { projectRoot } = await import('../../lib/build-info.ts');
  const { bundleBenchServer } = await import('../../bench/server-bundle.ts');
  const { startLocalServer } = await import('../../bench/local-server.ts');
  await bundleBenchServer(projectRoot);
  const server = await startLocalServer(projectRoot);
  t.teardown(() => server.stop());
  const baseline = await fetch(`${server.base}/__bench/baseline`, { headers: page });
  t.equal(baseline.status, 200);
  t.match(await baseline.text(), /^<!DOCTYPE html>/i, 'the home page');
  const figures = (await (await fetch(`${server.base}/__bench/process`)).json()) as { pid: number };
  t.equal(figures.pid, server.child.pid, "the server's own figures");
});

t.test("the render scenario's floor: a bare server rendering the page's markup per request", async (t) => {
  const { app, close } = await startTestApp({ PAGE_CACHE_TTL_MS: '0' });
  t.teardown(close);
  const { startBareServer } = await import('../../bench/bare.ts');
  const { projectRoot } = await import('../../lib/build-info.ts');
  for (const path of ['/', '/th/asdas/rtp-explained']) {
    const answer = await app.inject({ url: path, headers: page });
    const floor = await startBareServer(
      projectRoot,
      {
        path,
        status: 200,
        headers: { 'content-type': String(answer.headers['content-type']) },
        body: answer.rawPayload.toString('base64'),
        cache: undefined,
      },
      [],
      { react: true },
    );
    try {
      const served = await fetch(floor.base + path);
      t.equal(await served.text(), answer.body, `${path}: the same bytes, drawn by React`);
    } finally {
      await floor.stop();
    }
  }
});

t.test('the render scenario compares uncompressed answers on servers of its own', async (t) => {
  const { parseOptions } = await import('../../bench/options.ts');
  const options = parseOptions(['--scenario', 'render'], {});
  t.equal(options !== 'help' && options.encoding, '', 'no Accept-Encoding by default');
  for (const args of [
    ['--encoding', 'br'],
    ['--url', 'http://127.0.0.1:1'],
    ['--cache', 'off'],
  ]) {
    t.throws(() => parseOptions(['--scenario', 'render', ...args], {}), args.join(' '));
  }
});
