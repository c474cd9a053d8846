/**
 * One path for every decision: another spelling of a path (percent-encoded letters, dot
 * segments, repeated or trailing slashes, the absolute form) never reaches a route under rules
 * meant for another. GET and HEAD are redirected to the path's normal form; anything else is
 * refused, so the API's "Bearer header only" rule, the overload exemptions of probes and assets,
 * the form posts' checks and the page cache all see the path the router matched. Over real HTTP:
 * an injected request would have its dot segments resolved before the server saw them.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { checkPath } from '../../lib/canonical-path.ts';
import { loadConfig } from '../../lib/config.ts';
import { createTestDatabase, snapshotDatabase, testBackends } from '../helpers/database.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `path` exactly as written (no dot-segment resolution, no re-encoding). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', fail);
    request.end(body);
  });
}

const origin = 'http://localhost:3000';
const css = readdirSync(resolve(import.meta.dirname, '../../dist/client/assets')).find((name) =>
  name.endsWith('.css'),
)!;

t.test('normal forms (lib/canonical-path.ts)', async (t) => {
  const other = (target: string) => {
    const verdict = checkPath(target);
    return verdict.kind === 'other-spelling' ? verdict.path : verdict.kind;
  };
  t.equal(other('/api/auth/me?x=1'), 'normal');
  t.equal(other('/th/asdas/rtp-explained'), 'normal');
  t.equal(other('/asdas/%E0%B8%81'), 'normal', 'escapes of what is not unreserved stay escaped');
  t.equal(other('/.well-known/security.txt'), 'normal', 'a segment that starts with a dot is no dot segment');
  t.equal(other('/%61pi/auth/me'), '/api/auth/me');
  t.equal(other('/ap%69/auth/me'), '/api/auth/me');
  t.equal(other('/api/auth/%6De'), '/api/auth/me');
  t.equal(other('/asdas/%e0%b8%81'), '/asdas/%E0%B8%81', 'escapes in upper case');
  t.equal(other('/healthz/../asdas'), '/asdas');
  t.equal(other('/healthz/%2e%2e/asdas'), '/asdas', 'encoded dot segments too');
  t.equal(other('/healthz/.%2E/login'), '/login');
  t.equal(other('/a/./b/../../c'), '/c');
  t.equal(other('/../../etc/passwd'), '/etc/passwd', 'never above the root');
  t.equal(other('/bonus/'), '/bonus');
  t.equal(other('//evil.example/x'), '/evil.example/x', 'never a protocol-relative address');
  t.equal(other('/.//evil.example'), '/evil.example');
  t.equal(other('/\\evil.example'), '/%5Cevil.example', 'a backslash is encoded, never read as a slash');
  t.equal(other('/caf\u00c3\u00a9'), '/caf%C3%A9', 'raw bytes are encoded');
  t.equal(other('http://x.example/api/auth/me?y=1'), '/api/auth/me', 'the absolute form');
  t.equal(other('HTTP://x.example'), '/');
  t.equal(other('/asdas/%ff'), 'malformed', 'escapes that are not UTF-8');
  t.equal(other('/%zz'), 'malformed');
  t.equal(other('/a%'), 'malformed');
  t.equal(other('/a#b'), 'malformed', 'a request target has no fragment');
  t.equal(other('*'), 'malformed');
  t.equal(other('ftp://x/y'), 'malformed');
});

for (const backend of testBackends()) {
  t.test(backend, async (t) => {
    // An icon upstream that answers only when told: the requests waiting on it hold their places.
    const held: Array<() => void> = [];
    const upstream = createServer((_request, response) => {
      held.push(() => {
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({ prefix: 'heldset', icons: { dot: { body: '<circle r="1"/>' } }, width: 24, height: 24 }),
        );
      });
    });
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    t.teardown(() => upstream.close());

    const database = await createTestDatabase(backend);
    const dataDir = mkdtempSync(join(tmpdir(), 'asdas-paths-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      OVERLOAD_MAX_IN_FLIGHT: '1',
      ICON_UPSTREAM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    const app: FastifyInstance = await buildApp({
      config,
      database: { db: database.db },
      accounts: { passwordHashing: testHashing },
    });
    t.teardown(async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);

    const account = {
      email: 'owner@example.com',
      password: 'correct horse battery staple',
      displayName: 'Owner',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    };
    const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: account });
    t.equal(registered.statusCode, 201);
    const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
    const cookie = { cookie: `token=${token}` };
    const json = { ...cookie, 'content-type': 'application/json', origin };
    await app.jobs.settled();

    t.test(
      'the API with the cookie alone, through another spelling: refused or redirected, never served',
      async (t) => {
        const before = await snapshotDatabase(database.db);
        for (const path of [
          '/%61pi/auth/me',
          '/ap%69/auth/me',
          '/api/auth/%6De',
          '/x/../api/auth/me',
          '//api/auth/me',
          '/api//auth/me',
          '/api/auth/me/',
        ]) {
          const answer = await send(port, 'GET', path, cookie);
          t.equal(answer.status, 301, `GET ${path}: redirected`);
          t.equal(answer.headers.location, '/api/auth/me', `GET ${path}: to the normal form`);
          t.notMatch(answer.body, /owner@example\.com/, `GET ${path}: no user`);
        }
        const absolute = await send(port, 'GET', `http://127.0.0.1:${port}/api/auth/me`, cookie);
        t.equal(absolute.status, 301, 'the absolute form: redirected too');
        t.equal(absolute.headers.location, '/api/auth/me');
        t.equal(
          (await send(port, 'GET', '/api/auth/me', cookie)).status,
          401,
          'where it leads, the cookie alone is no login',
        );

        const mutations: Array<[string, string, string?]> = [
          ['POST', '/%61pi/play', '{}'],
          ['POST', '/%61pi/account/self-exclusion', '{"period":"1d"}'],
          ['PATCH', '/%61pi/account/profile', '{"displayName":"Changed"}'],
          ['DELETE', '/%61pi/account', '{"password":"correct horse battery staple"}'],
          ['POST', '/%61pi/auth/logout', '{}'],
          ['POST', '/%61pi/account/verification', '{}'],
          ['POST', '/api/x/../play', '{}'],
          ['POST', '/api/play/', '{}'],
          ['DELETE', `http://127.0.0.1:${port}/api/account`, '{"password":"correct horse battery staple"}'],
        ];
        for (const [method, path, body] of mutations) {
          const answer = await send(port, method, path, json, body);
          t.equal(answer.status, 400, `${method} ${path}: refused`);
          t.equal(JSON.parse(answer.body).code, 'NON_CANONICAL_PATH', `${method} ${path}: says why`);
        }
        t.equal(
          await snapshotDatabase(database.db),
          before,
          'nothing changed: no play session, no break, no new name, no deletion, no logout',
        );
        const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
        t.equal(me.statusCode, 200, 'the session still works');
      },
    );

    t.test('form posts through another spelling are refused, never logged in', async (t) => {
      const form = { 'content-type': 'application/x-www-form-urlencoded', origin, host: 'localhost:3000' };
      const body = new URLSearchParams({ email: account.email, password: account.password }).toString();
      for (const path of ['/healthz/../login', '/%6Cogin', '/login/', '/th/../login']) {
        const answer = await send(port, 'POST', path, form, body);
        t.equal(answer.status, 400, `POST ${path}: refused`);
        t.equal(answer.headers['set-cookie'], undefined, `POST ${path}: no session`);
      }
      const straight = await send(port, 'POST', '/login', form, body);
      t.equal(straight.status, 303, 'the form at its own address logs in');
      t.match(String(straight.headers['set-cookie']), /token=/);
    });

    t.test('pages: another spelling is redirected before it renders or enters the page cache', async (t) => {
      // What an operator sees of the page cache: its bytes on /metrics.
      const cachedBytes = async () =>
        (await app.metrics.registry.getSingleMetric('page_cache_bytes')?.get())?.values[0]?.value;
      const cacheBefore = await cachedBytes();
      t.type(cacheBefore, 'number', 'the page cache is on');
      for (const [path, normal] of [
        ['/healthz/../asdas', '/asdas'],
        ['/%61sdas?page=1', '/asdas?page=1'],
        ['/th/%61sdas/', '/th/asdas'],
        ['/assets/../bonus', '/bonus'],
        ['/.//evil.example', '/evil.example'],
        ['//evil.example/x', '/evil.example/x'],
        ['/\\evil.example', '/%5Cevil.example'],
      ] as const) {
        const answer = await send(port, 'GET', path, { accept: 'text/html' });
        t.equal(answer.status, 301, `${path}: redirected`);
        t.equal(answer.headers.location, normal, `${path}: to ${normal}`);
        t.equal(answer.body, '', `${path}: nothing rendered`);
      }
      t.equal(await cachedBytes(), cacheBefore, 'no cache entry for any of them');
      for (const path of ['/asdas/%ff', '/%zz', '/a%']) {
        const answer = await send(port, 'GET', path);
        t.equal(answer.status, 400, `${path}: refused`);
        t.equal(JSON.parse(answer.body).code, 'MALFORMED_PATH', `${path}: says why`);
        t.ok(answer.headers['content-security-policy'], `${path}: with the security headers`);
      }
    });

    t.test('pages: a path is the page its route declares, in its own case', async (t) => {
      const launch = await send(port, 'GET', '/play?launch=not-a-token', cookie);
      t.equal(launch.status, 303, 'the declared launch page spends the token first');
      t.match(launch.headers.location, /^\/play\?problem=/, 'and says what was wrong');
      for (const path of ['/PLAY?launch=not-a-token', '/Login', '/th/LOGIN', '/Play/_payload.json']) {
        const answer = await send(port, 'GET', path, cookie);
        t.equal(answer.status, 404, `${path}: no page`);
        t.notMatch(
          answer.body,
          /data-testid="play-(?:status|intro)"|"playSessions"/,
          `${path}: nor the page of another case`,
        );
      }
    });

    t.test('overload: exemptions follow the route matched, not the address spelled', async (t) => {
      // One place (OVERLOAD_MAX_IN_FLIGHT=1), held by a request waiting on the icon upstream.
      const holder = send(port, 'GET', '/api/_nuxt_icon/heldset.json?icons=dot');
      while (held.length < 1) await new Promise((done) => setTimeout(done, 20));
      t.equal((await send(port, 'GET', '/asdas', { accept: 'text/html' })).status, 503, 'a page is shed');
      t.equal(
        (await send(port, 'GET', '/assets/not-a-file.js')).status,
        503,
        'an address under /assets/ that is no asset is a page: shed',
      );
      t.equal(
        (await send(port, 'GET', '/readyz%2F..%2Fasdas', { accept: 'text/html' })).status,
        503,
        'an escaped slash is no way around',
      );
      t.equal((await send(port, 'GET', '/healthz/../asdas')).status, 301, 'a dot segment: only a redirect, no render');
      t.equal((await send(port, 'GET', '/healthz')).status, 200, 'the probe is served');
      t.equal((await send(port, 'GET', `/assets/${css}`)).status, 200, 'a real asset is served');
      for (const release of held.splice(0)) release();
      t.equal((await holder).status, 200);
    });
  });
}
