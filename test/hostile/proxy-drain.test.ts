/**
 * A replica stopping under load behind the shipped nginx (deploy/nginx/*.conf, only ports and the
 * replicas' addresses replaced), which has no active health checks and so sends it requests until
 * its listener closes. Reads never fail: what the stopping replica resets or refuses, nginx sends
 * to the other one (site.conf's proxy_next_upstream). nginx never sends a POST twice: one caught
 * in that moment is answered 502 (or the closing replica's 503), and its figure is reported.
 */
import { request } from 'node:http';
import t, { type Test } from 'tap';
import { nginxMissing, startShippedNginx } from '../helpers/nginx.ts';
import { type ServerProcess, startOwnServer } from '../helpers/server-process.ts';

/** One request on a connection of its own from `localAddress`: the status, or the error's code. */
function send(url: string, method: 'GET' | 'POST', localAddress: string): Promise<number | string> {
  return new Promise((done) => {
    const ask = request(url, { method, agent: false, localAddress }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    });
    ask.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
    if (method === 'POST') ask.setHeader('content-type', 'application/json');
    ask.end(method === 'POST' ? '{"nothing":true}' : undefined);
  });
}

function replica(t: Test): ServerProcess {
  return startOwnServer(t, 'proxy-drain', {
    TRUST_PROXY: '127.0.0.1',
    SHUTDOWN_DRAIN_MS: '500',
    SHUTDOWN_TIMEOUT_MS: '4000',
    LOG_LEVEL: 'info',
  });
}

const tally = (outcomes: Array<number | string>) =>
  outcomes.reduce<Record<string, number>>((all, outcome) => ({ ...all, [outcome]: (all[outcome] ?? 0) + 1 }), {});

const skip = nginxMissing();
t.test('a replica stops under load behind nginx: every read answered 200, every POST answered', { skip }, async (t) => {
  const [stopping, staying] = [replica(t), replica(t)];
  const hosts = await Promise.all([stopping.listening, staying.listening]);
  const nginx = await startShippedNginx(hosts.map((base) => new URL(base).host));
  t.teardown(nginx.stop);

  let running = true;
  let reads = 0;
  // Once the replica is gone, nginx must also route round it while it is down: 1,000 reads more.
  let lastRead = Infinity;
  const outcomes = { GET: [] as Array<number | string>, POST: [] as Array<number | string> };
  // 100 visitors reading and 10 posting, each from an address of its own (nginx bounds each
  // address's connections), each request on a new connection.
  const client = async (method: 'GET' | 'POST', address: string) => {
    while (running) {
      const outcome = await send(`${nginx.base}${method === 'GET' ? '/healthz' : '/api/none'}`, method, address);
      outcomes[method].push(outcome);
      if (method !== 'GET') continue;
      reads += 1;
      if (reads === 1_000) stopping.child.kill('SIGTERM');
      if (reads >= lastRead) running = false;
    }
  };
  const load = Promise.all([
    ...Array.from({ length: 100 }, (_, index) => client('GET', `127.0.2.${index + 1}`)),
    ...Array.from({ length: 10 }, (_, index) => client('POST', `127.0.3.${index + 1}`)),
  ]);
  t.equal(await stopping.exited, 0, 'the replica drains and exits 0 under load');
  lastRead = reads + 1_000;
  await load;

  const [reads200, posts] = [tally(outcomes.GET), tally(outcomes.POST)];
  t.same(Object.keys(reads200), ['200'], `every read answered 200: ${JSON.stringify(reads200)}`);
  t.comment(`POST outcomes (404: answered by a replica): ${JSON.stringify(posts)}`);
  t.same(
    Object.keys(posts).filter((outcome) => !['404', '502', '503'].includes(outcome)),
    [],
    'every POST answered: by a replica (404), or 502 from nginx, or 503 from the closing replica',
  );
  const closing = /"waitedMs":(\d+),"msg":"shutting down: no new connections/.exec(stopping.output());
  t.ok(closing, `nginx kept sending: the listener closed ${closing?.[1]} ms after the drain, at the latest`);
});
