/**
 * Shutdown waits for the work of requests in flight (plugins/app/requests-in-flight.ts): a handler
 * whose client has already gone still finds the database open, and close() resolves only after
 * it is done, at the latest after SHUTDOWN_TIMEOUT_MS. The database is the one the app opens
 * and closes itself (SQLite in DATA_DIR), as in production.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.ts';

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Sends GET `path` and destroys the connection once `entered` resolves (the handler runs). */
async function sendAndLeave(app: FastifyInstance, path: string, entered: Promise<void>): Promise<void> {
  const { port } = app.server.address() as AddressInfo;
  const client = request({ host: '127.0.0.1', port, path, agent: false });
  client.on('error', () => {});
  client.end();
  await entered;
  client.destroy();
  // The server sees the connection close.
  while ((await connectionCount(app)) > 0) await delay(10);
}

function connectionCount(app: FastifyInstance): Promise<number> {
  return new Promise((done, fail) => app.server.getConnections((error, count) => (error ? fail(error) : done(count))));
}

/** A route that waits for the test's `gate`, then queries the database; what it met is recorded. */
function gatedRoute(app: FastifyInstance, path: string, gate: Promise<void>, answer: 'value' | 'nothing') {
  const state = {
    entered: undefined as unknown as () => void,
    outcome: undefined as string | undefined,
    at: 0,
    done: undefined as unknown as () => void,
  };
  const entered = new Promise<void>((done) => (state.entered = done));
  const done = new Promise<void>((resolve) => (state.done = resolve));
  app.get(path, async (_request, reply) => {
    state.entered();
    await gate;
    try {
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(app.db);
      state.outcome = `ok ${rows[0]?.one}`;
    } catch (error) {
      state.outcome = (error as Error).message;
      throw error;
    } finally {
      state.at = performance.now();
      state.done();
    }
    // 'nothing': an async handler that returns nothing (Fastify runs no onSend for it once the
    // client is gone), 'value': one whose answer goes through onSend.
    if (answer === 'value') return { ok: true };
    reply.code(204);
    return undefined;
  });
  return { state, entered, done };
}

t.test('close() waits for handlers whose client has gone; the database is still open for them', async (t) => {
  const logs: Record<string, unknown>[] = [];
  let release!: () => void;
  const gate = new Promise<void>((done) => (release = done));
  let routes!: { value: ReturnType<typeof gatedRoute>; nothing: ReturnType<typeof gatedRoute> };
  const app = await buildTestApp({
    logs,
    extraRoutes: (app) => {
      routes = {
        value: gatedRoute(app, '/test/value', gate, 'value'),
        nothing: gatedRoute(app, '/test/nothing', gate, 'nothing'),
      };
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;

  await sendAndLeave(app, '/test/value', routes.value.entered);
  await sendAndLeave(app, '/test/nothing', routes.nothing.entered);

  let closedAt = 0;
  const closing = app.close().then(() => (closedAt = performance.now()));
  // Without the wait, close() is done (and the database destroyed) well within this.
  await Promise.race([closing, delay(500)]);
  t.equal(closedAt, 0, 'close() has not resolved while the handlers still run');
  await t.rejects(
    fetch(`http://127.0.0.1:${port}/healthz`),
    'the listener is closed meanwhile: new connections are refused',
  );
  release();
  await closing;
  // With or without the wait: the handlers' outcome (and what they logged) is in.
  await Promise.all([routes.value.done, routes.nothing.done]);
  await delay(50);

  for (const [name, { state }] of Object.entries(routes)) {
    t.equal(state.outcome, 'ok 1', `${name}: the handler's query after close() began succeeded`);
    t.ok(state.at > 0 && state.at <= closedAt, `${name}: close() resolved only after the handler was done`);
  }
  const errors = logs.filter((line) => Number(line.level) >= 50);
  t.same(errors, [], 'nothing logged as an error');
});

t.test('a handler that never ends holds close() for SHUTDOWN_TIMEOUT_MS at most', async (t) => {
  const logs: Record<string, unknown>[] = [];
  const never = new Promise<void>(() => {});
  let route!: ReturnType<typeof gatedRoute>;
  const app = await buildTestApp({
    logs,
    env: { SHUTDOWN_TIMEOUT_MS: '1000' },
    extraRoutes: (app) => {
      route = gatedRoute(app, '/test/never', never, 'value');
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  await sendAndLeave(app, '/test/never', route.entered);

  const started = performance.now();
  await app.close();
  const took = performance.now() - started;
  // Room below: the timer counts from the event loop's clock, which a preempted process read
  // before `started`; a close() that did not wait returns within a few ms.
  t.ok(took >= 500 && took < 10_000, `close() gave up after about SHUTDOWN_TIMEOUT_MS=1000 (${Math.round(took)} ms)`);
  t.match(
    logs.find((line) => line.msg === 'requests still in flight after SHUTDOWN_TIMEOUT_MS; closing anyway'),
    { level: 40, requestsInFlight: 1, timeoutMs: 1000 },
    'the give-up is logged as a warning',
  );
});

/** An app whose database is its own (SQLite in a fresh DATA_DIR, opened and destroyed by the app, no test hook that waits for the jobs), and its logs. */
async function appWithItsOwnDatabase(t: Test) {
  const logs: Record<string, unknown>[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-shutdown-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  return { app: await buildTestApp({ logs, env: { DATA_DIR: dataDir } }), logs };
}

/** A promise the test resolves with `release`. */
function gated() {
  let release!: () => void;
  const gate = new Promise<void>((done) => (release = done));
  return { gate, release };
}

t.test('the background jobs requests started finish before the database closes', async (t) => {
  const { app, logs } = await appWithItsOwnDatabase(t);
  const { gate, release } = gated();
  let outcome: string | undefined;
  // As a password reset's database work runs after its answer has gone.
  app.jobs.run('test', async () => {
    await gate;
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(app.db);
    outcome = `ok ${rows[0]?.one}`;
  });

  const closing = app.close();
  await Promise.race([closing, delay(300)]);
  release();
  await closing;
  t.equal(outcome, 'ok 1', "the job's query after close() began succeeded");
  t.same(
    logs.filter((line) => Number(line.level) >= 50),
    [],
    'nothing logged as an error',
  );
});

t.test('a periodic clean-up running at close finishes before the database closes, and runs no more', async (t) => {
  const { app, logs } = await appWithItsOwnDatabase(t);
  const { gate, release } = gated();
  let started!: () => void;
  const firstRun = new Promise<void>((done) => (started = done));
  let runs = 0;
  const outcomes: string[] = [];
  // As the hourly sweeps of expired sessions, launch tokens and emailed links run.
  app.jobs.every('test sweep', 5, async () => {
    runs += 1;
    started();
    await gate;
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(app.db);
    outcomes.push(`ok ${rows[0]?.one}`);
  });
  // The jobs' timer never keeps a process alive, and an app that does not listen holds nothing
  // else open (SQLite keeps no handle): this one does, until the first run.
  const keepAlive = setInterval(() => {}, 1000);
  await firstRun;
  clearInterval(keepAlive);

  const closing = app.close();
  await Promise.race([closing, delay(100)]);
  const runsAtClose = runs;
  release();
  await closing;
  t.ok(
    outcomes.length >= 1 && outcomes.every((outcome) => outcome === 'ok 1'),
    "every run's query after close() began succeeded",
  );
  t.equal(outcomes.length, runsAtClose, 'every run started finished before close() resolved');
  await delay(30);
  t.equal(runs, runsAtClose, 'no run starts after close()');
  t.same(
    logs.filter((line) => Number(line.level) >= 50),
    [],
    'nothing logged as an error',
  );
});
