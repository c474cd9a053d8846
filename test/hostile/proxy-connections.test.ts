/**
 * The shipped nginx configuration (deploy/nginx/) bounds what one client address can hold: 128 TCP
 * connections however idle (stream.conf, so a 129th is closed at once while another address is
 * served), idle keep-alive for 15 s, and headers sent within 5 s (site.conf). A real nginx with the
 * shipped files (only ports and the upstream substituted) in front of the real service.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';
import { startTestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/private-servers.ts';

const shipped = resolve(import.meta.dirname, '../../deploy/nginx');
const nginxBinary = ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((path) => existsSync(path));
const streamModule = '/usr/lib/nginx/modules/ngx_stream_module.so';

/** How this machine's nginx was built (`nginx -V` writes to stderr). */
const nginxFlags = nginxBinary ? spawnSync(nginxBinary, ['-V'], { encoding: 'utf8' }).stderr : '';
const loadsStream = nginxFlags.includes('--with-stream=dynamic');

/** Why this machine's nginx cannot run the shipped configuration, or undefined. */
function missing(): string | undefined {
  if (!nginxBinary) return 'nginx is not installed (Debian packages nginx and libnginx-mod-stream)';
  if (loadsStream && !existsSync(streamModule))
    return `nginx's stream module is not installed (${streamModule}: Debian package libnginx-mod-stream)`;
  return undefined;
}

const skip = missing();

t.test('nginx in front of the service, as shipped', { skip }, async (t) => {
  const { app, close } = await startTestApp();
  t.teardown(close);
  const backend = await app.listen({ host: '127.0.0.1', port: 0 });
  const [publicPort, httpPort] = [await freePort(), await freePort()];
  const prefix = mkdtempSync(join(tmpdir(), 'asdas-nginx-'));
  const substitute = (name: string, pairs: Array<[string, string]>) => {
    let text = readFileSync(join(shipped, name), 'utf8');
    for (const [from, to] of pairs) {
      if (!text.includes(from)) throw new Error(`${name} no longer holds ${from}`);
      text = text.replaceAll(from, to);
    }
    writeFileSync(join(prefix, name), text);
  };
  const internal: [string, string] = ['127.0.0.1:8081', `127.0.0.1:${httpPort}`];
  substitute('stream.conf', [['listen 8080;', `listen 127.0.0.1:${publicPort};`], internal]);
  substitute('listen.conf', [internal]);
  substitute('upstream.conf', [
    ['server app-1:3000', `server ${new URL(backend).host}`],
    ['  server app-2:3000 max_fails=1 fail_timeout=5s;\n', ''],
  ]);
  copyFileSync(join(shipped, 'site.conf'), join(prefix, 'site.conf'));
  substitute('nginx.conf', [
    [
      'worker_processes auto;',
      `${loadsStream ? `load_module ${streamModule};\n` : ''}worker_processes 1;\npid ${join(prefix, 'nginx.pid')};`,
    ],
    ['access_log /dev/stdout;', `access_log ${join(prefix, 'access.log')};`],
  ]);
  const nginx = spawn(nginxBinary!, ['-p', `${prefix}/`, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  nginx.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise((done) => nginx.on('exit', done));
  t.teardown(async () => {
    nginx.kill('SIGQUIT');
    await exited;
    rmSync(prefix, { recursive: true, force: true });
  });
  await until(
    async () => (await request('127.0.0.9', publicPort)).status === 200,
    () => `nginx answers ${errors}`,
  );

  t.test('128 connections per address, idle or not; another address is served meanwhile', async (t) => {
    const held = Array.from({ length: 140 }, () => request('127.0.0.1', publicPort, { keepOpen: true }));
    const answers = await Promise.all(held);
    t.equal(answers.filter((answer) => answer.status === 200).length, 128, '128 answered and kept alive');
    t.equal(answers.filter((answer) => answer.status === undefined).length, 12, 'the rest closed unanswered');
    t.equal((await request('127.0.0.2', publicPort)).status, 200, 'another address is served');
    // The PROXY protocol hands the http server each client's own address (its limits key on it).
    await until(
      async () => readFileSync(join(prefix, 'access.log'), 'utf8').includes('127.0.0.2 - - '),
      () => 'the access log naming 127.0.0.2',
    );
    const idle = answers.filter((answer) => answer.socket && !answer.socket.closed);
    t.equal(idle.length, 128, 'the kept-alive ones are still open');
    const started = Date.now();
    await Promise.all(idle.map((answer) => closed(answer.socket!, 25_000)));
    t.ok(Date.now() - started < 25_000, `idle keep-alive connections closed by nginx after ${Date.now() - started} ms`);
  });

  t.test('a connection that stalls its headers is cut after 5 s', async (t) => {
    const sockets = await Promise.all(
      Array.from({ length: 5 }, () => open('127.0.0.3', publicPort, 'GET / HTTP/1.1\r\nHost: x\r\n')),
    );
    const started = Date.now();
    await Promise.all(sockets.map((socket) => closed(socket, 12_000)));
    t.ok(Date.now() - started < 12_000, `cut after ${Date.now() - started} ms`);
  });
});

interface Answer {
  status: number | undefined;
  socket?: Socket;
}

/** A GET /healthz on a new connection from `localAddress`; the status, or undefined if closed unanswered. */
function request(localAddress: string, port: number, { keepOpen = false } = {}): Promise<Answer> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let received = '';
    socket.on('error', () => {});
    socket.on('connect', () =>
      socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\n${keepOpen ? '' : 'Connection: close\r\n'}\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (status && received.includes('\r\n\r\n') && /"status"/.test(received)) {
        if (!keepOpen) socket.destroy();
        done({ status: Number(status[1]), ...(keepOpen ? { socket } : {}) });
      }
    });
    socket.on('close', () => done({ status: undefined }));
  });
}

/** A connection from `localAddress` that sends `text` and then nothing. */
function open(localAddress: string, port: number, text: string): Promise<Socket> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => {
      socket.write(text);
      done(socket);
    });
    socket.on('error', () => {});
    socket.once('close', () => fail(new Error('closed before it was open')));
  });
}

function closed(socket: Socket, withinMs: number): Promise<void> {
  if (socket.closed) return Promise.resolve();
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`still open after ${withinMs} ms`)), withinMs);
    socket.once('close', () => {
      clearTimeout(timer);
      done();
    });
  });
}

async function until(check: () => Promise<boolean>, what: () => string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting for ${what()}`);
}
