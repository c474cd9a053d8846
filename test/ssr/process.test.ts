import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';

// The compiled server as operators run it: `node dist/node/server.js`.
const serverJs = resolve(import.meta.dirname, '../../dist/node/server.js');

function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [serverJs], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'asdas-proc-')), ...env },
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

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    request(url, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    })
      .on('error', fail)
      .end();
  });
}

t.test('a bad configuration value stops the start, logged with the variable, exit code 1', async (t) => {
  const server = startServer({ PORT: '99999' });
  const code = await server.exited;
  t.equal(code, 1);
  t.match(server.output(), /error caught during app initialization/);
  t.match(server.output(), /PORT must be <= 65535/);
});

t.test('SIGTERM: stops accepting, finishes the request in flight, exits 0', async (t) => {
  // A slow upstream makes a real in-flight request: the icon endpoint waits for it.
  const upstream = createServer((_request, response) => {
    setTimeout(() => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ prefix: 'slowset', icons: { dot: { body: '<circle r="1"/>' } }, width: 24, height: 24 }));
    }, 900);
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  t.teardown(() => upstream.close());
  const { port } = upstream.address() as { port: number };

  const server = startServer({ PORT: '0', ICON_UPSTREAM_URL: `http://127.0.0.1:${port}`, SHUTDOWN_TIMEOUT_MS: '5000' });
  t.teardown(() => (server.child as ChildProcess).kill('SIGKILL'));
  const address = await server.listening;

  const inFlight = get(`${address}/api/_nuxt_icon/slowset.json?icons=dot`);
  await new Promise((done) => setTimeout(done, 250));
  server.child.kill('SIGTERM');
  await new Promise((done) => setTimeout(done, 150));

  await t.rejects(get(`${address}/healthz`), 'new connections are refused once shutdown begins');
  const finished = await inFlight;
  t.equal(finished.status, 200, 'the request in flight completed');
  t.match(finished.body, /"prefix":"slowset"/);
  t.equal(await server.exited, 0, 'a clean exit');
  t.match(server.output(), /shutting down/);
});
