/**
 * A replica that stops never resets a connection its load balancer opened: after SIGTERM the
 * listener stays open until connections stop arriving (lib/quiet-listener.ts), so 100 clients that
 * reconnect for every request, behind a balancer that stops sending once /readyz fails, see no
 * error at all, and the process still exits 0. The compiled server as a process of its own.
 */
import { get } from 'node:http';
import t from 'tap';
import { startServerProcess } from '../helpers/server-process.ts';

/** One GET on a connection of its own: the status, or the error's code. */
function fetchOnce(url: string): Promise<number | string> {
  return new Promise((done) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });
}

t.test('100 reconnecting clients through a SIGTERM: no reset, no refusal', async (t) => {
  const server = startServerProcess({ SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_TIMEOUT_MS: '10000', LOG_LEVEL: 'info' });
  t.teardown(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });
  const base = await server.listening;

  // The balancer: sends while /readyz answers 200, stops at the first other answer.
  let sending = true;
  const balancer = (async () => {
    while (sending) if ((await fetchOnce(`${base}/readyz`)) !== 200) sending = false;
  })();

  const outcomes = new Map<number | string, number>();
  let answered = 0;
  const clients = Array.from({ length: 100 }, async () => {
    while (sending) {
      const outcome = await fetchOnce(`${base}/healthz`);
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      answered += 1;
      if (answered === 2_000) server.child.kill('SIGTERM');
    }
  });
  await Promise.all([balancer, ...clients]);
  t.ok(answered >= 2_000, `${answered} requests, SIGTERM after 2,000`);
  t.same([...outcomes.keys()], [200], `every one answered 200: ${JSON.stringify([...outcomes])}`);
  t.equal(await server.exited, 0, 'and the process exits 0');
});
