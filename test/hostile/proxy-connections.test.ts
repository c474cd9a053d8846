/**
 * What one client address can hold through the shipped nginx (deploy/nginx/*.conf, only ports and
 * the replica's address replaced) in front of the compiled server as a process of its own: 128 TCP
 * connections however idle (stream.conf: the next are refused while another address is served),
 * idle keep-alive for 15 s, and headers within 5 s (site.conf).
 */
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { nginxMissing, startShippedNginx } from '../helpers/nginx.ts';
import { startOwnServer } from '../helpers/server-process.ts';

const bound = 128;
const headerTimeoutMs = 5_000;

interface Connection {
  socket: Socket;
  /** Resolves with the answer's status line once its head came, or 'closed unanswered'. */
  settled: Promise<string>;
  /** Resolves with how long the connection lived, from its connect. */
  closed: Promise<number>;
}

/** A connection from `localAddress` that sends `text` once connected and then nothing. */
function open(localAddress: string, port: number, text: string): Connection {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  let openedAt = Date.now();
  socket.on('error', () => {});
  socket.on('connect', () => {
    openedAt = Date.now();
    if (text) socket.write(text);
  });
  const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - openedAt)));
  const settled = new Promise<string>((done) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const head = /^(HTTP\/1\.1 \d{3}) [^\r]*\r\n[\s\S]*?\r\n\r\n/.exec(received);
      if (head) done(head[1]!);
    });
    void closed.then(() => done('closed unanswered'));
  });
  return { socket, settled, closed };
}

/** The status of a GET from `localAddress` on a connection of its own. */
function status(url: string, localAddress: string): Promise<number | undefined> {
  return new Promise((done) => {
    const ask = get(url, { agent: false, localAddress }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode));
    });
    ask.on('error', () => done(undefined));
  });
}

/** `promise`, or a failure naming `what` after `withinMs`. */
function within<T>(promise: Promise<T>, withinMs: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what()} after ${withinMs} ms`)), withinMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** How long each of `connections` lived, once all have closed (within `withinMs`). */
const allClosed = (connections: Connection[], withinMs: number) =>
  within(
    Promise.all(connections.map((connection) => connection.closed)),
    withinMs,
    () => `${connections.filter((connection) => !connection.socket.closed).length} of ${connections.length} still open`,
  );

const count = (values: string[]) =>
  values.reduce<Record<string, number>>((all, value) => ({ ...all, [value]: (all[value] ?? 0) + 1 }), {});

const skip = nginxMissing();
t.test('one address through the shipped nginx: connections, idle keep-alive, stalled headers', { skip }, async (t) => {
  const server = startOwnServer(t, 'proxy-connections', { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' });
  const nginx = await startShippedNginx([new URL(await server.listening).host]);
  t.teardown(nginx.stop);
  const destroyAll: Connection[] = [];
  t.teardown(() => destroyAll.forEach((connection) => connection.socket.destroy()));

  // All at once, from three addresses, so the whole test lasts one keep-alive timeout.
  const request = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';
  const keptAlive = Array.from({ length: 140 }, () => open('127.0.0.1', nginx.port, request));
  const stalled = Array.from({ length: 600 }, () =>
    open('127.0.0.3', nginx.port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\n'),
  );
  const silent = Array.from({ length: 5 }, () => open('127.0.0.4', nginx.port, ''));
  destroyAll.push(...keptAlive, ...stalled, ...silent);

  const outcomes = await within(
    Promise.all(keptAlive.map((connection) => connection.settled)),
    30_000,
    () => 'keep-alive connections neither answered nor closed',
  );
  t.same(
    count(outcomes),
    { 'HTTP/1.1 200': bound, 'closed unanswered': 140 - bound },
    `${bound} keep-alive connections from one address answered, the rest refused`,
  );
  const held = keptAlive.filter((_, index) => outcomes[index] === 'HTTP/1.1 200');

  t.equal(await status(`${nginx.base}/api/auth/me`, '127.0.0.2'), 401, 'another address is answered meanwhile');
  t.equal(held.filter((connection) => connection.socket.closed).length, 0, `while the first holds ${bound} idle ones`);
  // The stream front hands the client's own address on (PROXY protocol): nginx's and the
  // service's per-address limits key on it, not on 127.0.0.1.
  await within(server.waitFor(/"ip":"127\.0\.0\.2"/), 10_000, () => 'no request logged from 127.0.0.2');
  t.pass('the service sees the client address, not the stream front');

  // Refused at once, or cut at the header timeout: nothing holds a connection longer.
  const lifetimes = await allClosed([...stalled, ...silent], 30_000);
  const [stalledLives, silentLives] = [lifetimes.slice(0, stalled.length), lifetimes.slice(stalled.length)];
  t.equal(
    stalledLives.filter((ms) => ms < headerTimeoutMs - 1_000).length,
    600 - bound,
    `of 600 connections stalling their headers from one address, ${600 - bound} refused at once`,
  );
  t.equal(
    stalledLives.filter((ms) => ms >= headerTimeoutMs - 1_000).length,
    bound,
    `${bound} cut after the ${headerTimeoutMs} ms header timeout (longest ${Math.max(...stalledLives)} ms)`,
  );
  t.ok(
    silentLives.every((ms) => ms >= headerTimeoutMs - 1_000),
    `connections that send nothing are cut at the header timeout too (${silentLives.join(', ')} ms)`,
  );

  const idleLives = await allClosed(held, 30_000);
  t.pass(`idle keep-alive connections closed by nginx after ${Math.min(...idleLives)} to ${Math.max(...idleLives)} ms`);
});
