/**
 * PostgreSQL restarted while the service is under a light login and `me` load: the service
 * recovers by itself (no restart of its own), /readyz shows the outage while it lasts, the API
 * says 503 DATABASE_UNAVAILABLE meanwhile, and no request hangs past its timeout. A private
 * cluster made with the machine's initdb/pg_ctl, stopped and started by the test.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.ts';
import { findPostgres, startPrivatePostgres } from '../helpers/private-servers.ts';

const binaries = findPostgres();
if (typeof binaries === 'string') {
  t.test('PostgreSQL restarted under load', { skip: binaries }, async () => {});
} else {
  const postgres = await startPrivatePostgres(binaries);
  t.teardown(() => postgres.destroy());
  // The database plugin opens the pool from DATABASE_URL, as in production (10 s connect timeout).
  const app = await buildTestApp({ env: { DATABASE_URL: postgres.url } });
  t.teardown(() => app.close());
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  const account = { email: 'restart@example.com', password: 'correct horse battery staple' };
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...account, displayName: 'Restart', locale: 'en', acceptTerms: true, confirmAge: true }),
  });
  t.equal(registered.status, 201);
  const token = /token=([^;]+)/.exec(registered.headers.get('set-cookie') ?? '')![1]!;

  // 'stopping' and 'starting': the moments in between, when either answer is right.
  type Phase = 'before' | 'stopping' | 'outage' | 'starting' | 'after';
  let phase: Phase = 'before';
  const outcomes: Array<{ phase: Phase; what: string; status: number | 'no answer'; code?: string }> = [];
  const newOutcome = () => new Promise<void>((resolve) => waiting.push(resolve));
  const waiting: Array<() => void> = [];
  /** Waits until `count` more requests (of one kind, if given) have been answered (or given up on) in `wanted` phase. */
  async function answered(wanted: Phase, count: number, ok?: boolean, what?: 'login' | 'me') {
    const matches = () =>
      outcomes.filter(
        (o) =>
          o.phase === wanted &&
          (ok === undefined || (o.status === 200) === ok) &&
          (what === undefined || o.what === what),
      ).length;
    const target = matches() + count;
    while (matches() < target) await newOutcome();
  }

  // Light load: two clients, one logging in, one asking `me`, back to back. A client gives up
  // after 15 s: longer than the pool's 10 s connect timeout, so "no answer" means a hang.
  let loading = true;
  const client = async (what: 'login' | 'me') => {
    while (loading) {
      const started = phase;
      let status: number | 'no answer';
      let code: string | undefined;
      try {
        const response =
          what === 'login'
            ? await fetch(`${base}/api/auth/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(account),
                signal: AbortSignal.timeout(15_000),
              })
            : await fetch(`${base}/api/auth/me`, {
                headers: { authorization: `Bearer ${token}` },
                signal: AbortSignal.timeout(15_000),
              });
        status = response.status;
        code = ((await response.json()) as { code?: string }).code;
      } catch {
        status = 'no answer';
      }
      // A request that began in one phase and ended in another belongs to neither.
      if (started === phase) outcomes.push({ phase, what, status, ...(code ? { code } : {}) });
      for (const resolve of waiting.splice(0)) resolve();
    }
  };
  const clients = Promise.all([client('login'), client('me')]);
  t.teardown(async () => {
    loading = false;
    await clients;
  });

  t.test('before: served', async (t) => {
    await answered('before', 4, true);
    t.equal((await app.inject({ url: '/readyz' })).json().checks.database, 'ok');
  });

  t.test('PostgreSQL stopped: /readyz says so, the API says 503, nothing hangs', async (t) => {
    phase = 'stopping';
    await postgres.stop();
    phase = 'outage';
    const ready = await app.inject({ url: '/readyz' });
    t.equal(ready.statusCode, 503, '/readyz: not ready');
    t.same(ready.json(), { status: 'unavailable', checks: { overload: 'ok', database: 'failing' } });
    await answered('outage', 6);
    const during = outcomes.filter((o) => o.phase === 'outage');
    t.ok(
      during.every((o) => o.status === 503 && o.code === 'DATABASE_UNAVAILABLE'),
      `every request answered 503 DATABASE_UNAVAILABLE: ${JSON.stringify(during.map((o) => `${o.what} ${o.status} ${o.code ?? ''}`))}`,
    );
    t.equal((await app.inject({ url: '/healthz' })).statusCode, 200, 'the process itself is fine');
  });

  t.test('PostgreSQL back: the service recovers by itself', async (t) => {
    phase = 'starting';
    await postgres.start();
    // Until /readyz sees the database again (the pool replaces its dead connections by itself).
    while ((await app.inject({ url: '/readyz' })).statusCode !== 200)
      await new Promise((done) => setTimeout(done, 100));
    phase = 'after';
    await Promise.all([answered('after', 3, true, 'me'), answered('after', 3, true, 'login')]);
    const after = outcomes.filter((o) => o.phase === 'after');
    t.ok(
      after.filter((o) => o.what === 'me' && o.status === 200).length >= 3,
      'the session made before the restart still works',
    );
    t.ok(after.filter((o) => o.what === 'login' && o.status === 200).length >= 3, 'and new logins');
    t.same(
      after.filter((o) => o.status !== 200),
      [],
      'nothing fails once it is back',
    );
  });

  t.test('no request hung past its timeout', async (t) => {
    loading = false;
    await clients;
    t.same(
      outcomes.filter((o) => o.status === 'no answer'),
      [],
      `${outcomes.length} requests, every one answered`,
    );
    t.same(
      outcomes.filter((o) => typeof o.status === 'number' && o.status >= 500 && o.status !== 503),
      [],
      'no 500: the outage is a 503',
    );
  });
}
