import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { startTestApp } from '../helpers/app.ts';

const user: PublicUser = {
  id: 'u1',
  email: 'ann@example.com',
  displayName: 'Ann',
  locale: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  emailVerified: true,
};

// The guarded pages over HTTP, with a logged-in user stubbed in front of the page routes.
const dataDir = mkdtempSync(join(tmpdir(), 'asdas-test-'));
const app = await buildApp({
  config: loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    // The stubbed user carries no cookie: the anonymous page cache must not answer for them.
    PAGE_CACHE_TTL_MS: '0',
  }),
  logger: createLogger('silent'),
});
// What the accounts plugin does: a logged-in request carries its user.
app.addHook('preHandler', async (request) => {
  if (request.headers['x-test-user']) request.user = user;
});
await app.ready();
t.teardown(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const loggedIn = { 'x-test-user': '1' };

t.test(
  'guest middleware on the server: a logged-in user is redirected (302) to an encoded, on-site Location',
  async (t) => {
    const cases: [url: string, location: string][] = [
      ['/login', '/'],
      ['/registration', '/'],
      ['/th/login', '/th'],
      ['/th/registration?redirect=%2Fth%2Fbonus', '/th/bonus'],
      ['/login?redirect=%2Fasdas%3Fpage%3D2', '/asdas?page=2'],
      ['/login?redirect=//evil.com', '/'],
      ['/login?redirect=/%5Cevil.com', '/'],
      ['/login?redirect=%2F%5Cevil.com%2Fx', '/'],
      ['/login?redirect=%5C%5Cevil.com', '/'],
      ['/login?redirect=https%3A%2F%2Fevil.com', '/'],
      ['/login?redirect=javascript%3Aalert(1)', '/'],
      ['/login?redirect=%2F%2F%2Fevil.com', '/'],
      ['/login?redirect=%2Fa%20b%3Cscript%3E%22', '/a%20b%3Cscript%3E%22'],
      ['/login?redirect=%2Fbonus%0D%0ASet-Cookie%3A%20x%3D1', '/bonusSet-Cookie:%20x=1'], // CR/LF dropped by the URL parser
      ['/login?redirect=%2F.%2F%2Fevil.com', '/evil.com'],
      ['/login?redirect=%2F%E0%B8%82%E0%B9%88%E0%B8%B2%E0%B8%A7', '/%E0%B8%82%E0%B9%88%E0%B8%B2%E0%B8%A7'],
      ['/registration?redirect=%2Fbonus%3Fa%3D%22%3E%3C', '/bonus?a=%22%3E%3C'],
    ];
    for (const [url, location] of cases) {
      const response = await app.inject({ url, headers: loggedIn });
      t.equal(response.statusCode, 302, `${url}: 302`);
      t.equal(response.headers.location, location, `${url} → ${location}`);
      const sent = String(response.headers.location);
      t.notMatch(sent, /^[/\\]{2}|[\s<>"]/, 'never protocol-relative, nothing that needs escaping');
      t.equal(new URL(sent, 'https://site.example').origin, 'https://site.example', 'stays on the site');
    }
    const page = await app.inject({ url: '/login?redirect=//evil.com' });
    t.equal(page.statusCode, 200, 'a logged-out visitor gets the login page');
  },
);

t.test('the payload of a guarded page answers the same encoded redirect', async (t) => {
  const payload = (url: string, headers = {}) => app.inject({ url, headers });
  const asUser = await payload('/login/_payload.json', loggedIn);
  t.equal(asUser.statusCode, 200);
  t.same(asUser.json(), { redirect: '/' });
  t.same((await payload('/th/registration/_payload.json', loggedIn)).json(), { redirect: '/th' });
  t.equal((await payload('/login/_payload.json')).statusCode, 200);
});

t.test('the whole app serves the build it runs and its manifest', async (t) => {
  const { app, close } = await startTestApp({ LOG_LEVEL: 'warn' });
  t.teardown(close);
  const build = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../dist/build.json'), 'utf8')) as {
    id: string;
  };
  const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
  t.match(page.body, new RegExp(`<html lang="en" data-build-id="${build.id}"`));
  t.match(page.body, new RegExp(`"buildId":"${build.id}"`), 'window.__ASDAS__ carries it too');
  t.match(page.body, /"buildCheckIntervalMs":3600000/, 'the default interval reaches the browser');
  const latest = await app.inject('/builds/latest.json');
  t.equal(latest.json().id, build.id, 'latest.json names the build the server runs (right after a build)');
  const meta = await app.inject(`/builds/meta/${build.id}.json`);
  t.same(meta.json(), { ...build, prerendered: [] });
  const missing = await app.inject({ url: '/builds/meta/no-such-build.json', headers: { accept: 'text/html' } });
  t.equal(missing.statusCode, 404);
  t.same(missing.json(), { statusCode: 404, code: 'NOT_FOUND', message: 'Not found: /builds/meta/no-such-build.json' });

  const { app: quick, close: closeQuick } = await startTestApp({ LOG_LEVEL: 'warn', BUILD_CHECK_INTERVAL_MS: '1000' });
  t.teardown(closeQuick);
  t.match((await quick.inject('/')).body, /"buildCheckIntervalMs":1000/, 'BUILD_CHECK_INTERVAL_MS is configurable');
});
