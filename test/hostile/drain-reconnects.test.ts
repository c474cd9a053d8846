/**
 * A replica that stops never resets a connection a client opened: after SIGTERM it drains
 * (/readyz 503, still serving) and then keeps its listener open until connections stop arriving
 * (lib/quiet-listener.ts). 100 clients that reconnect for every request, behind a balancer slower
 * than the drain, see no error at all, and the process exits 0. Closing the listener at the end
 * of the drain instead resets what waits in the accept queue and refuses the rest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startServerProcess } from '../helpers/server-process.ts';

/** One GET on a connection of its own from `localAddress`: the status, or the error's code. */
function fetchOnce(url: string, localAddress: string): Promise<number | string> {
  return new Promise((done) => {
    const request = get(url, { agent: false, localAddress }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });
}

t.test('100 reconnecting clients, a balancer slower than the drain: no reset, no refusal', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-drain-'));
  const server = startServerProcess({
    DATA_DIR: dataDir,
    SHUTDOWN_DRAIN_MS: '500',
    SHUTDOWN_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'info',
  });
  t.teardown(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const base = await server.listening;

  // The balancer asks /readyz every 500 ms and takes the replica out after 3 failures in a row,
  // so it sends for at least 1 s after SIGTERM: longer than the 500 ms drain. (A probe period, as
  // a balancer has, not a wait for anything.)
  let sending = true;
  let probesFailed = 0;
  const balancer = (async () => {
    while (sending) {
      probesFailed = (await fetchOnce(`${base}/readyz`, '127.0.0.1')) === 200 ? 0 : probesFailed + 1;
      if (probesFailed === 3) sending = false;
      else await new Promise((done) => setTimeout(done, 500));
    }
  })();

  const outcomes = new Map<number | string, number>();
  let answered = 0;
  // Each client from an address of its own, as visitors are (the bound of connections per address holds).
  const clients = Array.from({ length: 100 }, async (_, index) => {
    while (sending) {
      const outcome = await fetchOnce(`${base}/healthz`, `127.0.1.${index + 1}`);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      answered += 1;
      if (answered === 1_000) server.child.kill('SIGTERM');
    }
  });
  await Promise.all([balancer, ...clients]);
  const seen = JSON.stringify(Object.fromEntries(outcomes));
  t.ok(answered > 1_000, `${answered} requests, SIGTERM after 1,000`);
  t.equal(outcomes.get('ECONNRESET') ?? 0, 0, `no connection reset: ${seen}`);
  t.equal(outcomes.get('ECONNREFUSED') ?? 0, 0, 'none refused');
  t.same([...outcomes.keys()], [200], 'every request answered 200');
  t.equal(await server.exited, 0, 'and the process exits 0');
  t.match(server.output(), /draining: \/readyz answers 503/);
  const closing = /"waitedMs":(\d+),"msg":"shutting down: no new connections/.exec(server.output());
  t.ok(closing, `the listener closed ${closing?.[1]} ms after the drain, once no connection came`);
});
