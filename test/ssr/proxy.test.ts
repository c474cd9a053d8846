import t from 'tap';
import { loadConfig } from '../../lib/config.ts';
import { browserUserAgent, startTestApp, type TestApp } from '../helpers/app.ts';

// The service behind a reverse proxy on a non-default port, as deploy/nginx/ runs it: the browser
// says `Origin: https://site.example:8443`, and the proxy forwards the host in one of the ways
// proxies do. fastify.inject connects from 127.0.0.1, the "proxy" here.
const account = { email: 'proxied@example.com', password: 'a long passphrase 42' };

async function withAccount(testApp: TestApp) {
  const registered = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { ...account, displayName: 'Proxied', locale: 'en', acceptTerms: true, confirmAge: true },
  });
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
}

function postLogin(testApp: TestApp, headers: Record<string, string>) {
  return testApp.app.inject({
    method: 'POST',
    url: '/login?redirect=%2Fbonus',
    headers: { 'user-agent': browserUserAgent, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(account).toString(),
  });
}

t.test('behind a trusted proxy, a no-JavaScript login on a non-default port is accepted', async (t) => {
  const proxied = await startTestApp({ TRUST_PROXY: '127.0.0.1', PUBLIC_URL: 'https://www.example.com' });
  t.teardown(proxied.close);
  await withAccount(proxied);

  const ways: { name: string; headers: Record<string, string> }[] = [
    {
      name: 'Host with its port (nginx: Host $http_host)',
      headers: { host: 'site.example:8443', 'x-forwarded-proto': 'https' },
    },
    {
      name: 'X-Forwarded-Host with its port',
      headers: { host: 'app:3000', 'x-forwarded-host': 'site.example:8443', 'x-forwarded-proto': 'https' },
    },
    {
      name: 'a host without its port, and X-Forwarded-Port',
      headers: { host: 'site.example', 'x-forwarded-proto': 'https', 'x-forwarded-port': '8443' },
    },
  ];
  for (const { name, headers } of ways) {
    const login = await postLogin(proxied, { origin: 'https://site.example:8443', ...headers });
    t.equal(login.statusCode, 303, name);
    t.equal(login.headers.location, '/bonus', `${name}: onwards`);
    t.ok(
      login.cookies.find((cookie) => cookie.name === 'token' && cookie.secure),
      `${name}: a Secure session cookie`,
    );
  }

  const defaultPort = await postLogin(proxied, {
    origin: 'https://site.example',
    host: 'site.example:443',
    'x-forwarded-proto': 'https',
  });
  t.equal(defaultPort.statusCode, 303, 'https://site.example is https://site.example:443');
  const publicOrigin = await postLogin(proxied, { origin: 'https://www.example.com', host: 'app:3000' });
  t.equal(publicOrigin.statusCode, 303, 'the PUBLIC_URL origin is always accepted');

  const otherPort = await postLogin(proxied, {
    origin: 'https://site.example:9443',
    host: 'site.example:8443',
    'x-forwarded-proto': 'https',
  });
  t.equal(otherPort.statusCode, 403, 'another port is another origin');
  t.equal(otherPort.json().code, 'CROSS_ORIGIN_FORM');
  const otherSite = await postLogin(proxied, {
    origin: 'https://evil.example:8443',
    host: 'site.example',
    'x-forwarded-port': '8443',
  });
  t.equal(otherSite.statusCode, 403, 'X-Forwarded-Port never makes another host this site');
  const plainHttp = await postLogin(proxied, {
    origin: 'http://site.example:8443',
    host: 'site.example:8443',
    'x-forwarded-proto': 'https',
  });
  t.equal(plainHttp.statusCode, 403, 'another scheme is another origin');
});

t.test('without TRUST_PROXY the forwarded headers are not believed', async (t) => {
  const direct = await startTestApp({ PUBLIC_URL: 'https://www.example.com' });
  t.teardown(direct.close);
  await withAccount(direct);
  const forwardedHost = await postLogin(direct, {
    origin: 'https://site.example:8443',
    host: 'app:3000',
    'x-forwarded-host': 'site.example:8443',
    'x-forwarded-proto': 'https',
  });
  t.equal(forwardedHost.statusCode, 403);
  const forwardedPort = await postLogin(direct, {
    origin: 'http://site.example:8443',
    host: 'site.example',
    'x-forwarded-port': '8443',
  });
  t.equal(forwardedPort.statusCode, 403);
  const ownHost = await postLogin(direct, { origin: 'http://site.example:8443', host: 'site.example:8443' });
  t.equal(
    ownHost.statusCode,
    303,
    'the Host header with its port is enough when the browser talks to the service itself',
  );
});

t.test('start-up warnings: PUBLIC_URL missing in production, a hop count on every interface', async (t) => {
  const risky = await startTestApp({ TRUST_PROXY: '1', HOST: '0.0.0.0' });
  t.teardown(risky.close);
  const warned = (variable: string) => risky.logs.find((line) => line.level === 40 && line.variable === variable);
  t.match(
    warned('PUBLIC_URL')?.msg,
    /PUBLIC_URL is not set: canonical links, hreflang alternates, the sitemap and robots.txt name http:\/\/localhost:3000/,
  );
  t.match(
    warned('TRUST_PROXY')?.msg,
    /TRUST_PROXY=1 .* can choose its own address and step around per-address rate limits/,
  );

  const variables = (env: Record<string, string>, dev = false) =>
    loadConfig(env, { dev }).warnings.map((warning) => warning.variable);
  const smtp = { SMTP_URL: 'smtp://mail.example.com:587' };
  t.same(
    variables({ NODE_ENV: 'production', PUBLIC_URL: 'https://example.com', TRUST_PROXY: '10.0.0.0/8', ...smtp }),
    [],
    'a complete production setup',
  );
  t.same(
    variables({ NODE_ENV: 'production', PUBLIC_URL: 'https://example.com', TRUST_PROXY: 'true', ...smtp }),
    ['TRUST_PROXY'],
    'trusting everybody too',
  );
  t.same(
    variables({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://example.com',
      TRUST_PROXY: '1',
      HOST: '127.0.0.1',
      ...smtp,
    }),
    [],
    'a hop count on loopback only',
  );
  t.same(
    variables({ NODE_ENV: 'production', PUBLIC_URL: 'https://example.com', TRUST_PROXY: '2', HOST: '::', ...smtp }),
    ['TRUST_PROXY'],
  );
  t.same(
    variables({ NODE_ENV: 'production', PUBLIC_URL: 'https://example.com', TRUST_PROXY: '10.0.0.0/8' }),
    ['SMTP_URL'],
    'production without a mail server',
  );
  t.same(variables({ NODE_ENV: 'development' }), [], 'development needs no PUBLIC_URL');
  t.same(variables({ NODE_ENV: 'production' }, true), [], 'nor does the dev server');
});

t.test('SHUTDOWN_DRAIN_MS: 5 s in production, none in development and tests unless set', async (t) => {
  t.equal(loadConfig({ NODE_ENV: 'production' }).shutdownDrainMs, 5000);
  t.equal(loadConfig({ NODE_ENV: 'production' }, { dev: true }).shutdownDrainMs, 0);
  t.equal(loadConfig({ NODE_ENV: 'test' }).shutdownDrainMs, 0);
  t.equal(loadConfig({ NODE_ENV: 'development', SHUTDOWN_DRAIN_MS: '1500' }).shutdownDrainMs, 1500);
  t.equal(loadConfig({ NODE_ENV: 'production', SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs, 0);
  t.throws(() => loadConfig({ SHUTDOWN_DRAIN_MS: 'soon' }), /SHUTDOWN_DRAIN_MS/);
});
