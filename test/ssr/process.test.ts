import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';

// The compiled server as operators run it: `node dist/node/server.js`.
const serverJs = resolve(import.meta.dirname, '../../dist/node/server.js');

function startServer(env: Record<string, string | undefined>, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, serverJs], {
    // METRICS_PORT=0: the default 9464 would clash between servers started at the same time; no
    // shedding on event-loop delay, which a loaded test machine would trigger.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'asdas-proc-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const listening = new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const address = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (address) {
        clearInterval(timer);
        done(address);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      fail(new Error(`server exited before listening:\n${output}`));
    });
  });
  listening.catch(() => undefined); // a test that expects a failed start awaits `exited` instead
  return { child, exited, listening, output: () => output };
}

function get(url: string): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((done, fail) => {
    request(url, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body, headers: response.headers }));
    })
      .on('error', fail)
      .end();
  });
}

/** Asks again until `check` holds: waits for the event, not for a length of time. */
async function until(check: () => Promise<boolean>, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

const refused = (url: string) =>
  get(url).then(
    () => false,
    () => true,
  );

/** The pino lines a server wrote, parsed (other lines skipped). */
function logLines(output: string): { time: number; msg: string; level: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { time: number; msg: string; level: number });
}

t.test('a bad configuration value stops the start, logged with the variable, exit code 1', async (t) => {
  const server = startServer({ PORT: '99999' });
  const code = await server.exited;
  t.equal(code, 1);
  t.match(server.output(), /error caught during app initialization/);
  t.match(server.output(), /PORT must be an integer from 0 to 65535/);
});

t.test('an unknown LOG_LEVEL stops the start the same way, listing the allowed levels', async (t) => {
  const server = startServer({ PORT: '0', LOG_LEVEL: 'verbose' });
  const code = await server.exited;
  t.equal(code, 1);
  const lines = server.output().split('\n').filter(Boolean);
  t.ok(
    lines.every((line) => line.startsWith('{')),
    'only JSON log lines, no raw stack on stderr',
  );
  const fatal = lines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .find((line) => line.level === 60);
  t.match(
    fatal?.msg,
    /^error caught during app initialization: Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)$/,
  );
});

t.test("without NODE_ENV the server is production through and through: React's production build renders", async (t) => {
  // React picks its build by process.env.NODE_ENV, not by our configuration's default; its
  // development build renders a page at about twice the cost.
  const preload = resolve(import.meta.dirname, '../fixtures/preload/report-react-build.mjs');
  const server = startServer({ NODE_ENV: undefined, PORT: '0' }, ['--import', preload]);
  const base = await server.listening;
  t.equal((await get(`${base}/`)).status, 200, 'a page rendered');
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
  t.match(server.output(), /react-dom server builds: production\n/, 'only the production build was loaded');
});

t.test(
  'with PostgreSQL and Redis, as replicas run: the built server starts and logs in',
  {
    skip:
      process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
        ? false
        : 'TEST_DATABASE_URL or TEST_REDIS_URL not set',
  },
  async (t) => {
    // What the bundle loads only with them (pg, ioredis, rate-limiter-flexible) is loaded here.
    const server = startServer({
      PORT: '0',
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      REDIS_URL: process.env.TEST_REDIS_URL,
      PLAY_SECRET: 'a-secret-of-thirty-two-characters!',
      PLAY_VERIFY_KEY: 'a-verify-key-of-thirty-two-chars!',
    });
    const base = await server.listening;
    t.equal((await get(`${base}/readyz`)).status, 200, 'ready');
    const login = await new Promise<number>((done, fail) => {
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
      request(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (r) => {
        r.resume();
        done(r.statusCode ?? 0);
      })
        .on('error', fail)
        .end(body);
    });
    t.equal(login, 401, 'a login counted by the limits and refused by the password check');
    server.child.kill('SIGTERM');
    t.equal(await server.exited, 0);
  },
);

t.test('SIGTERM: stops accepting, finishes the request in flight, exits 0', async (t) => {
  // A slow upstream makes a real in-flight request: the icon endpoint waits for it, and the
  // upstream answers only when the test says so.
  let arrived: () => void = () => {};
  const requestArrived = new Promise<void>((done) => (arrived = done));
  let held: ServerResponse | undefined;
  const upstream = createServer((_request, response) => {
    held = response;
    arrived();
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  t.teardown(() => upstream.close());
  const { port } = upstream.address() as { port: number };

  const server = startServer({
    PORT: '0',
    ICON_UPSTREAM_URL: `http://127.0.0.1:${port}`,
    SHUTDOWN_DRAIN_MS: '0',
    SHUTDOWN_TIMEOUT_MS: '30000',
  });
  t.teardown(() => (server.child as ChildProcess).kill('SIGKILL'));
  const address = await server.listening;

  const inFlight = get(`${address}/api/_nuxt_icon/slowset.json?icons=dot`);
  await requestArrived;
  server.child.kill('SIGTERM');
  // The listener closes once no new connection came for a moment (lib/quiet-listener.ts).
  await until(async () => /shutting down: no new connections/.test(server.output()), 'the listener closing');
  await until(() => refused(`${address}/healthz`), 'new connections refused once shutdown begins');
  t.pass('new connections are refused once the listener closes, with a request still in flight');

  held!.setHeader('content-type', 'application/json');
  held!.end(JSON.stringify({ prefix: 'slowset', icons: { dot: { body: '<circle r="1"/>' } }, width: 24, height: 24 }));
  const finished = await inFlight;
  t.equal(finished.status, 200, 'the request in flight completed');
  t.match(finished.body, /"prefix":"slowset"/);
  t.equal(await server.exited, 0, 'a clean exit');
  t.match(server.output(), /shutting down/);
});

t.test('SIGTERM drains first: /readyz answers 503 while pages and the API are still served', async (t) => {
  // A drain that only a second signal ends, so nothing here races a clock.
  const server = startServer({ PORT: '0', SHUTDOWN_DRAIN_MS: '600000' });
  t.teardown(() => (server.child as ChildProcess).kill('SIGKILL'));
  const address = await server.listening;
  t.equal((await get(`${address}/readyz`)).status, 200, 'ready before');
  t.equal((await get(`${address}/bonus`)).status, 200, 'a page kept in the page cache before');

  server.child.kill('SIGTERM');
  await until(async () => (await get(`${address}/readyz`)).status === 503, '/readyz to answer 503');
  const ready = await get(`${address}/readyz`);
  t.same(JSON.parse(ready.body), { status: 'shutting-down' });

  const page = await get(`${address}/bonus`);
  t.equal(page.status, 200, 'a page is still served');
  t.match(page.body, /<html lang="en"/);
  t.equal(page.headers.connection, 'close', 'and closes its connection, so the next request opens one elsewhere');
  t.equal(page.headers['x-cache'], 'HIT', 'a page-cache hit too');
  const api = await get(`${address}/api/auth/me`);
  t.equal(api.status, 401, 'the API still answers');
  t.equal(JSON.parse(api.body).code, 'UNAUTHENTICATED');
  t.equal((await get(`${address}/healthz`)).status, 200, 'alive while draining');
  t.match(server.output(), /draining: \/readyz answers 503/);

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'a second signal ends the drain; a clean exit');
  t.match(server.output(), /second signal: ending the drain now/);
  t.match(server.output(), /"msg":"stopped"/);
});

t.test('the drain lasts SHUTDOWN_DRAIN_MS, then the server closes by itself', async (t) => {
  const server = startServer({ PORT: '0', SHUTDOWN_DRAIN_MS: '1000' });
  t.teardown(() => (server.child as ChildProcess).kill('SIGKILL'));
  await server.listening;
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
  const lines = logLines(server.output());
  const draining = lines.find((line) => line.msg.startsWith('draining'));
  const closing = lines.find((line) => line.msg.startsWith('shutting down'));
  t.ok(draining && closing, 'both phases logged');
  // A lower bound with room: the drain's timer counts from the event loop's clock, read before the
  // signal's callback ran (on a loaded machine, a preempted process reads it well before), and the
  // log lines carry Date.now(); a drain that did not wait closes within a few ms.
  t.ok(
    closing!.time - draining!.time >= 500,
    `closed ${closing!.time - draining!.time} ms after the drain began (SHUTDOWN_DRAIN_MS=1000)`,
  );
});

t.test('stopping `npm start` stops the site: npm passes SIGTERM on to the server', async (t) => {
  // npm runs scripts through `sh -c`, which does not pass signals on; the script execs node.
  const npm = spawn('npm', ['start'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHUTDOWN_DRAIN_MS: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'asdas-npm-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk) => (output += chunk));
  npm.stderr.on('data', (chunk) => (output += chunk));
  const npmExited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));
  // eslint-disable-next-line prefer-const -- set once the server logs its pid; the teardown before reads it
  let serverPid: number | undefined;
  t.teardown(() => {
    npm.kill('SIGKILL');
    if (serverPid) {
      try {
        process.kill(serverPid, 'SIGKILL');
      } catch {
        // already gone, as it should be
      }
    }
  });

  await until(async () => /listening at http:\/\/127\.0\.0\.1:\d+/.test(output), 'npm start to listen', 300_000);
  const listening = logLines(output).find((line) => line.msg.includes('listening at')) as { pid?: number } | undefined;
  serverPid = listening?.pid;
  t.ok(serverPid, 'the server logged its pid');
  const address = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
  t.equal((await get(`${address}/readyz`)).status, 200);

  npm.kill('SIGTERM');
  t.equal(await npmExited, 0, 'npm exits 0');
  t.match(output, /shutting down/, 'the server got the signal');
  t.match(output, /"msg":"stopped"/, 'and stopped gracefully');
  t.throws(() => process.kill(serverPid!, 0), { code: 'ESRCH' }, 'no server process is left behind');
});
