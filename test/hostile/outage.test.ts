/**
 * The database away, as a visitor and an operator meet it: pages and their forms answer a
 * translated 503 page with Retry-After (never a 500, never JSON to a browser), payloads and the
 * API a JSON 503, /readyz says which check fails whatever cookie comes along, and the routes that
 * never need the user (assets, probes, sitemap, robots, build manifests, icons) never look a
 * session up, so they neither cost a query nor fail with the database.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import t, { type Test } from 'tap';
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { collectingLogger, testConfig } from '../helpers/app.ts';
import { postgresUrl } from '../helpers/database.ts';
import { findPostgres, startPrivatePostgres, type PrivatePostgres } from '../helpers/private-servers.ts';

const origin = 'http://localhost:3000';
const css = readdirSync(resolve(import.meta.dirname, '../../dist/client/assets')).find((name) =>
  name.endsWith('.css'),
)!;
const form = {
  'content-type': 'application/x-www-form-urlencoded',
  origin,
  host: 'localhost:3000',
  accept: 'text/html',
};
const account = {
  email: 'outage@example.com',
  password: 'correct horse battery staple',
  displayName: 'Outage',
  locale: 'en',
  acceptTerms: true,
  confirmAge: true,
};

/** The whole service (pages included) opening its database from the configuration, as in production. */
async function startApp(
  t: Test,
  env: Record<string, string>,
): Promise<{ app: FastifyInstance; logs: Record<string, unknown>[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-outage-'));
  const logs: Record<string, unknown>[] = [];
  const app = await buildApp({
    config: testConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      PLAY_SECRET: 'a-test-secret-of-at-least-32-characters',
      ...env,
    }),
    logger: collectingLogger(logs),
    accounts: { passwordHashing: testHashing },
  });
  t.teardown(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await app.ready();
  return { app, logs };
}

/** Queries the app has run so far (the database plugin times each one). */
async function queries(app: FastifyInstance): Promise<number> {
  const text = await app.metrics.registry.getSingleMetricAsString('db_query_duration_seconds');
  return [...text.matchAll(/^db_query_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

async function sessionOf(app: FastifyInstance): Promise<string> {
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: account });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  await app.jobs.settled();
  return /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
}

const needNoUser = [
  '/healthz',
  `/assets/${css}`,
  '/sitemap.xml',
  '/robots.txt',
  '/builds/latest.json',
  '/api/_nuxt_icon/mdi.json?icons=home',
  '/api/no-such-endpoint',
];

const binaries = findPostgres();
const backends: Array<'sqlite' | 'postgres'> = typeof binaries === 'string' ? ['sqlite'] : ['sqlite', 'postgres'];
if (typeof binaries === 'string') t.comment(`PostgreSQL outage not tested: ${binaries}`);

for (const backend of backends) {
  t.test(`${backend}: routes that never need the user never look a session up`, async (t) => {
    let postgres: PrivatePostgres | undefined;
    if (backend === 'postgres') {
      postgres = await startPrivatePostgres(binaries as Exclude<typeof binaries, string>);
      t.teardown(() => postgres!.destroy());
    }
    const { app } = await startApp(t, postgres ? { DATABASE_URL: postgres.url } : {});
    const token = await sessionOf(app);
    for (const path of needNoUser) {
      for (const credential of [{ cookie: `token=${token}` }, { authorization: `Bearer ${token}` }]) {
        const before = await queries(app);
        const response = await app.inject({ url: path, headers: credential });
        t.ok(response.statusCode < 500, `${path}: ${response.statusCode}`);
        t.equal(await queries(app), before, `${path} with ${Object.keys(credential)[0]}: no query`);
      }
    }
    const before = await queries(app);
    await app.inject({ url: '/account', headers: { cookie: `token=${token}` } });
    t.ok((await queries(app)) > before, 'a page does look its visitor up');
  });
}

t.test(
  'PostgreSQL stopped: pages, forms, payloads, the API and /readyz',
  { skip: typeof binaries === 'string' ? binaries : false },
  async (t) => {
    const postgres = await startPrivatePostgres(binaries as Exclude<typeof binaries, string>);
    t.teardown(() => postgres.destroy());
    const { app, logs } = await startApp(t, { DATABASE_URL: postgres.url });
    const token = await sessionOf(app);
    const cookie = `token=${token}`;
    await postgres.stop();

    const login = new URLSearchParams({ email: account.email, password: account.password }).toString();
    for (const [path, language, text] of [
      ['/login', 'en', /We cannot reach our data for a moment/],
      ['/th/login', 'th', /ระบบไม่สามารถเข้าถึงข้อมูลได้ชั่วคราว/],
    ] as const) {
      const response = await app.inject({ method: 'POST', url: path, headers: form, payload: login });
      t.equal(response.statusCode, 503, `POST ${path} (no JavaScript): 503`);
      t.equal(response.headers['retry-after'], '5');
      t.match(response.headers['content-type'], /^text\/html/);
      t.match(response.body, new RegExp(`<html lang="${language}"`), `in ${language}`);
      t.match(response.body, text);
    }
    const registration = new URLSearchParams({
      email: 'second@example.com',
      password: account.password,
      displayName: 'Second',
      acceptTerms: 'on',
      confirmAge: 'on',
    }).toString();
    const registered = await app.inject({ method: 'POST', url: '/registration', headers: form, payload: registration });
    t.equal(registered.statusCode, 503, 'POST /registration (no JavaScript): 503');
    t.match(registered.headers['content-type'], /^text\/html/);

    const page = await app.inject({ url: '/account', headers: { cookie, accept: 'text/html' } });
    t.equal(page.statusCode, 503, 'a signed-in page: 503');
    t.match(page.headers['content-type'], /^text\/html/, 'as a page, not JSON');
    t.equal(page.headers['retry-after'], '5');

    const payload = await app.inject({ url: '/account/_payload.json', headers: { cookie } });
    t.equal(payload.statusCode, 503, 'its payload: 503');
    t.equal(payload.json().code, 'DATABASE_UNAVAILABLE');
    const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    t.equal(me.statusCode, 503);
    t.equal(me.json().code, 'DATABASE_UNAVAILABLE');

    const ready = await app.inject({ url: '/readyz', headers: { cookie } });
    t.equal(ready.statusCode, 503, '/readyz with a cookie: 503, not 500');
    t.same(ready.json(), { status: 'unavailable', checks: { overload: 'ok', database: 'failing' } });

    for (const path of needNoUser) {
      const response = await app.inject({ url: path, headers: { cookie } });
      t.ok(response.statusCode < 500, `${path} with a cookie: ${response.statusCode}`);
    }
    t.equal(
      (await app.inject({ url: '/asdas', headers: { accept: 'text/html' } })).statusCode,
      200,
      'anonymous content pages are still served',
    );
    t.notOk(
      logs.some((line) => line.level === 50 && line.msg !== 'database unavailable'),
      'every error line is the outage itself',
    );

    await postgres.start();
    let again = await app.inject({ url: '/readyz' });
    while (again.statusCode !== 200) {
      await new Promise((done) => setTimeout(done, 100));
      again = await app.inject({ url: '/readyz' });
    }
    const back = await app.inject({ method: 'POST', url: '/login', headers: form, payload: login });
    t.equal(back.statusCode, 303, 'logs in again once the database is back');
  },
);

const shared = postgresUrl();
t.test(
  'PostgreSQL out of connections (SQLSTATE 53300): 503 DATABASE_UNAVAILABLE, not a 500',
  { skip: shared ? false : 'TEST_DATABASE_URL is not set' },
  async (t) => {
    // A role of its own: a connection limit binds every role but a superuser.
    const role = `asdas_limited_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: shared });
    await admin.connect();
    await admin.query(`create role ${role} login`);
    await admin.query(`create schema ${role} authorization ${role}`);
    const terminate = () =>
      admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role]);
    const url = new URL(shared!);
    url.username = role;
    url.searchParams.set('options', `-c search_path=${role}`);
    const { app, logs } = await startApp(t, { DATABASE_URL: url.toString() });
    t.teardown(async () => {
      await app.close();
      await terminate();
      await admin.query(`drop schema ${role} cascade`);
      await admin.query(`drop role ${role}`);
      await admin.end();
    });
    const token = await sessionOf(app);

    await admin.query(`alter role ${role} connection limit 0`);
    await terminate();
    // Until the pool has dropped the connections the server closed, so the next one is refused.
    const poolTotal = async () =>
      /db_pool_connections\{state="total"\} (\d+)/.exec(
        await app.metrics.registry.getSingleMetricAsString('db_pool_connections'),
      )?.[1];
    while ((await poolTotal()) !== '0') await new Promise((done) => setTimeout(done, 20));

    const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    t.equal(me.statusCode, 503);
    t.equal(me.json().code, 'DATABASE_UNAVAILABLE');
    t.equal(me.headers['retry-after'], '5');
    t.ok(
      logs.some((line) => line.msg === 'database unavailable' && (line.err as { code?: string }).code === '53300'),
      "logged with the server's reason",
    );
    const ready = await app.inject({ url: '/readyz' });
    t.equal(ready.json().checks.database, 'failing', '/readyz fails meanwhile');

    await admin.query(`alter role ${role} connection limit -1`);
    const again = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    t.equal(again.statusCode, 200, 'answers again once connections are allowed');
  },
);
