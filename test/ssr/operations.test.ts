import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import t from 'tap';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { browserUserAgent, googlebot, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

const { app, logs, close } = await startTestApp();
t.teardown(close);

t.test('a first visit to / preferring Thai goes to /th', async (t) => {
  const response = await app.inject({
    url: '/',
    headers: { 'user-agent': browserUserAgent, 'accept-language': 'th-TH,th;q=0.9,en;q=0.8' },
  });
  t.equal(response.statusCode, 302);
  t.equal(response.headers.location, '/th');
  t.match(response.headers.vary, /Accept-Language/);
});

t.test('no redirect for English speakers, with a language cookie, for bots, or off /', async (t) => {
  const cases = [
    { name: 'English first', headers: { 'accept-language': 'en-US,en;q=0.9,th;q=0.8' } },
    { name: 'a language cookie', headers: { 'accept-language': 'th', cookie: 'lang=en' } },
    { name: 'a Thai cookie', headers: { 'accept-language': 'th', cookie: 'lang=th' } },
    { name: 'a bot', headers: { 'accept-language': 'th', 'user-agent': googlebot } },
    { name: 'no Accept-Language', headers: {} },
  ];
  for (const { name, headers } of cases) {
    const response = await app.inject({ url: '/', headers: { 'user-agent': browserUserAgent, ...headers } });
    t.equal(response.statusCode, 200, name);
  }
  const deep = await app.inject({
    url: '/bonus',
    headers: { 'user-agent': browserUserAgent, 'accept-language': 'th' },
  });
  t.equal(deep.statusCode, 200, 'only the home page redirects');
});

t.test('request ids: honoured when sane, generated otherwise, echoed and logged', async (t) => {
  const given = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
  t.equal(given.headers['x-request-id'], 'abc-123');
  const forged = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id\nforged log line' } });
  t.match(forged.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'a header that could forge log lines is replaced');
  await app.inject({ url: '/bonus', headers: { 'x-request-id': 'trace-me-42' } });
  t.ok(
    logs.some((line) => line.reqId === 'trace-me-42'),
    'log lines carry the request id',
  );
});

t.test('Authorization and Cookie headers never reach the logs', async (t) => {
  await app.inject({
    url: '/bonus',
    headers: { authorization: 'Bearer top-secret-token', cookie: 'token=cookie-secret' },
  });
  const text = JSON.stringify(logs);
  t.notMatch(text, /top-secret-token/);
  t.notMatch(text, /cookie-secret/);
  t.match(text, /\[redacted\]/, 'the headers are logged as redacted');
});

t.test('a request without credentials logs no redaction placeholder', async (t) => {
  const before = logs.length;
  await app.inject({ url: '/bonus', headers: { 'x-request-id': 'plain-request-1' } });
  const lines = logs.slice(before).filter((line) => line.reqId === 'plain-request-1' && line.req);
  t.ok(lines.length > 0, 'the request was logged');
  for (const line of lines) {
    const headers = (line.req as { headers: Record<string, unknown> }).headers;
    t.notOk('authorization' in headers || 'cookie' in headers, 'no authorization or cookie key');
  }
  await app.inject({ url: '/bonus', headers: { 'x-request-id': 'cookie-request-1', cookie: 'lang=th' } });
  const withCookie = logs.find((line) => line.reqId === 'cookie-request-1' && line.req) as {
    req: { headers: Record<string, unknown> };
  };
  t.equal(withCookie.req.headers.cookie, '[redacted]', 'a cookie that is there is redacted');
  t.notOk('authorization' in withCookie.req.headers);
});

t.test('health and readiness', async (t) => {
  const health = await app.inject({ url: '/healthz' });
  t.same(health.json(), { status: 'ok' });
  const ready = await app.inject({ url: '/readyz' });
  t.equal(ready.statusCode, 200);
  t.equal(ready.json().status, 'ok');
});

t.test('hashed assets are immutable, pages revalidate', async (t) => {
  const assets = readdirSync(resolve(import.meta.dirname, '../../dist/client/assets'));
  const script = assets.find((name) => name.endsWith('.js'));
  const asset = await app.inject({ url: `/assets/${script}` });
  t.equal(asset.statusCode, 200);
  t.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
  const page = await app.inject({ url: '/' });
  t.equal(page.headers['cache-control'], 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
  const missing = await app.inject({ url: '/assets/nope-123.js' });
  t.equal(missing.statusCode, 404);
});

t.test('security headers on pages', async (t) => {
  const page = await app.inject({ url: '/bonus' });
  t.equal(page.headers['x-content-type-options'], 'nosniff');
  t.equal(page.headers['x-frame-options'], 'DENY');
  const csp = String(page.headers['content-security-policy']);
  t.match(csp, /(^|;)script-src 'self'(;|$)/, 'scripts only from this origin: no nonce, no hash, no unsafe-inline');
  t.match(csp, /script-src-attr 'none'/, 'no inline event handlers');
  const scripts = [...page.body.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  t.ok(scripts.length > 0);
  for (const attributes of scripts) {
    t.ok(
      /\bsrc=|type="application\/(?:ld\+)?json"/.test(attributes),
      `no inline executable script: <script${attributes}>`,
    );
  }
  t.ok(pageStateOf(page.body).runtime, 'the page state travels as JSON');
});

t.test('configuration errors name the variable', async (t) => {
  const bad = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL must be an origin such as https:\/\/example.com/],
    [{ TRUST_PROXY: 'yes please' }, /TRUST_PROXY must be true, false, a hop count/],
    [
      { DATABASE_URL: 'mysql://user:hunter2@x' },
      /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    ],
    [
      { DATABASE_URL: '' },
      /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL \(it is set but empty: give it a value, or remove it for the default\)$/,
    ],
    [{ LOG_LEVEL: '' }, /LOG_LEVEL must be one of .* \(it is set but empty/],
    [{ PORT: '  ' }, /^Invalid configuration: PORT must be an integer from 0 to 65535 \(it is set but empty/],
    [{ REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'yes' }, /REQUIRE_VERIFIED_EMAIL_FOR_PLAY must be true or false \(got "yes"\)/],
    [{ OTEL_TRACES_SAMPLER_ARG: '2' }, /OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/],
    // Past the pattern, a URL must parse.
    [{ PUBLIC_URL: 'https://[example' }, /PUBLIC_URL must be an origin such as https:\/\/example.com/],
    [
      { SMTP_URL: 'smtp://me:hunter2@[mail' },
      /^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL$/,
    ],
    [
      { HEADERS_TIMEOUT_MS: '40000' },
      /^Invalid configuration: HEADERS_TIMEOUT_MS must be at most REQUEST_TIMEOUT_MS\.$/,
    ],
  ] as const;
  for (const [env, pattern] of bad) {
    t.throws(() => loadConfig(env), ConfigError, `${Object.keys(env)[0]} is refused`);
    try {
      loadConfig(env);
    } catch (error) {
      t.match((error as Error).message, pattern);
      t.notMatch((error as Error).message, /\^|\$|\\s|\[\^/, 'no raw pattern in the message');
      t.notMatch((error as Error).message, /hunter2/, 'a secret is never repeated');
    }
  }
  t.throws(() => loadConfig({ DATABASE_URL: 'postgres://db/site' }), {
    message: /PLAY_SECRET is required when DATABASE_URL/,
  });
  t.doesNotThrow(() => loadConfig({ DATABASE_URL: 'postgres://db/site', PLAY_SECRET: 'x'.repeat(32) }));
  t.equal(loadConfig({ HEADERS_TIMEOUT_MS: '30000' }).headersTimeoutMs, 30000, 'as long as REQUEST_TIMEOUT_MS will do');
  t.equal(loadConfig({ REQUIRE_VERIFIED_EMAIL_FOR_PLAY: 'true' }).requireVerifiedEmailForPlay, true);
  t.equal(loadConfig({}).requireVerifiedEmailForPlay, false);
  const good = loadConfig({ PORT: '8080', TRUST_PROXY: '2', PUBLIC_URL: 'https://example.com/' });
  t.equal(good.port, 8080);
  t.equal(good.trustProxy, 2);
  t.equal(good.publicUrl, 'https://example.com');
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, ['10.0.0.0/8', '127.0.0.1']);
});
