/**
 * What an operator's configuration must not leave open: the session and notice cookies are Secure
 * whenever visitors use HTTPS (PUBLIC_URL), even when the proxy's X-Forwarded-Proto is not
 * believed, and the start says so; an API logout with the cookie alone ends nothing and says so; the metrics listener binds loopback unless told otherwise and answers only
 * GET /metrics; Redis rate-limit keys carry their limit's name (keys under the old names, which
 * lost a prefix, are never read).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { browserUserAgent, buildTestApp, startTestApp } from '../helpers/app.ts';
import { tokenCookie, validRegistration } from '../helpers/accounts.ts';
import { createTestDatabase, testBackends } from '../helpers/database.ts';
import { formClient } from '../helpers/forms.ts';
import { freePort } from '../helpers/private-servers.ts';
import { startServerProcess } from '../helpers/server-process.ts';

for (const backend of testBackends()) {
  t.test(`the session cookie behind HTTPS (${backend})`, async (t) => {
    const database = await createTestDatabase(backend);
    t.teardown(() => database.close());
    const logs: Record<string, unknown>[] = [];
    const app = await buildTestApp({ database, logs, env: { PUBLIC_URL: 'https://site.example' } });
    t.teardown(() => app.close());

    const warning = logs.find((line) => line.level === 40 && line.variable === 'TRUST_PROXY');
    t.match(
      warning?.msg,
      /PUBLIC_URL is https:\/\/site\.example but TRUST_PROXY is false/,
      'the start warns that the proxy is not believed',
    );

    for (const headers of [{}, { 'x-forwarded-proto': 'https' }]) {
      const registered = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: validRegistration(),
        headers,
      });
      t.equal(registered.statusCode, 201);
      t.equal(
        tokenCookie(registered)?.attributes.secure,
        true,
        `Secure (${Object.keys(headers).length ? 'with' : 'without'} X-Forwarded-Proto)`,
      );
    }
    const body = validRegistration();
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: body.email, password: body.password },
    });
    t.equal(tokenCookie(login)?.attributes.secure, true, 'a login too');
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${tokenCookie(login)!.value}` },
    });
    t.match(String(logout.headers['set-cookie']), /token=;.*Secure/, 'and the cookie that clears it');
  });
}

t.test('plain HTTP sites keep a cookie browsers send back over HTTP', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({ database, env: { PUBLIC_URL: 'http://intranet.example' } });
  t.teardown(() => app.close());
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: validRegistration(),
    headers: { 'user-agent': browserUserAgent },
  });
  t.notOk(tokenCookie(registered)?.attributes.secure);
  t.same(
    loadConfig({
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://intranet.example',
      SMTP_URL: 'smtp://mail.example',
    }).warnings.map((w) => w.variable),
    [],
    'no warning when the site is plain HTTP',
  );
});

t.test('the metrics listener: loopback by default, GET /metrics only', async (t) => {
  t.equal(loadConfig({ HOST: '0.0.0.0' }).metricsHost, '127.0.0.1');
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-metrics-host-'));
  const metricsPort = await freePort();
  const server = startServerProcess({ DATA_DIR: dataDir, HOST: '0.0.0.0', METRICS_PORT: String(metricsPort) });
  t.teardown(async () => {
    server.child.kill('SIGKILL');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = (await server.waitFor(/"url":"([^"]+)","msg":"metrics listening"/))[1]!;
  t.equal(url, `http://127.0.0.1:${metricsPort}/metrics`, 'the site on every interface, the metrics on loopback');
  t.equal((await fetch(url)).status, 200);
  for (const path of ['/', '/anything', '/metrics/extra']) {
    t.equal((await fetch(url.replace('/metrics', path))).status, 404, `${path}: not found`);
  }
  t.equal((await fetch(url, { method: 'POST' })).status, 404, 'POST: not found');
});

const redisUrl = process.env.TEST_REDIS_URL || undefined;
t.test(
  'Redis keys are named after their limit; keys under the old names do nothing',
  { skip: redisUrl ? false : 'TEST_REDIS_URL is not set' },
  async (t) => {
    const database = await createTestDatabase('sqlite');
    t.teardown(() => database.close());
    const namespace = `test-keys-${process.pid}-${randomBytes(4).toString('hex')}:`;
    const redis = new Redis(redisUrl!);
    t.teardown(async () => {
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });
    // What the old naming left behind: a full counter for this address's logins.
    await redis.set(`${namespace}undefinedundefined-login-ip:127.0.0.1`, '1000000', 'PX', 60_000);
    const app = await buildTestApp({
      database,
      env: { REDIS_URL: redisUrl! },
      rateLimits: { namespace, limits: { loginPerIp: { max: 5, windowMs: 60_000 } } },
    });
    t.teardown(() => app.close());
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'someone@example.com', password: 'not the password' },
    });
    t.equal(login.statusCode, 401, 'the old counter is not read');
    const keys = (await redis.keys(`${namespace}*`)).filter((key) => !key.includes('undefinedundefined'));
    t.ok(keys.length > 0);
    t.same(
      keys.filter(
        (key) => !/^test-keys-[^:]+:(login-ip|login-account|login-account-ip|login-failures-ip):[0-9a-f:.]+$/.test(key),
      ),
      [],
      `every key is <namespace><limit>:<value> (${keys.join(', ')})`,
    );
  },
);

t.test('every cookie the site sets over HTTPS is Secure, the notice after a form too', async (t) => {
  const { app, close } = await startTestApp({ PUBLIC_URL: 'https://site.example' });
  t.teardown(close);
  // The proxy is not believed (TRUST_PROXY unset): the request looks like plain HTTP.
  const { post } = formClient(app, 'https://site.example');
  const registered = await post('/registration', {
    email: `flash.${randomBytes(4).toString('hex')}@example.com`,
    displayName: 'Somchai',
    password: 'a long passphrase 42',
    acceptTerms: 'on',
    confirmAge: 'on',
  });
  t.equal(registered.statusCode, 303);
  const flash = registered.cookies.find((cookie) => cookie.name === 'flash');
  t.ok(flash?.value, 'a notice for the next page');
  t.equal(flash?.secure, true, 'Secure, as the session cookie beside it');
  t.equal(registered.cookies.find((cookie) => cookie.name === 'token')?.secure, true);
});

t.test('an API logout with the cookie alone ends nothing and says so', async (t) => {
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({ database });
  t.teardown(() => app.close());
  const token = tokenCookie(
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: validRegistration() }),
  )!.value;
  const crossSite = await app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { cookie: `token=${token}`, origin: 'https://evil.example' },
  });
  t.equal(crossSite.statusCode, 401, 'not a logout');
  t.equal(crossSite.json().code, 'UNAUTHENTICATED');
  t.notOk(crossSite.headers['set-cookie'], 'the cookie is left as it is');
  const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  t.equal(me.statusCode, 200, 'the session goes on');
  const own = await app.inject({
    method: 'POST',
    url: '/api/auth/logout',
    headers: { authorization: `Bearer ${token}` },
  });
  t.equal(own.statusCode, 204, 'with the Bearer header it ends');
  t.match(String(own.headers['set-cookie']), /^token=;/, 'and clears the cookie');
});
