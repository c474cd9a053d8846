/**
 * Hostile input, across the API and the pages, on each database: malformed and deeply nested
 * JSON, wrong and odd content types, oversized bodies, NUL and other control characters, lone
 * surrogates, 10k-character strings, `__proto__`/`constructor` keys, SQL fragments, CRLF and
 * oversized headers, bad and oversized cookies and Bearer values, traversal in every path
 * parameter, odd methods. Every answer must be below 500 with no stack in its body, nothing may
 * be logged at error level (a client must not be able to write error logs at will), and the
 * database must hold exactly what it held before.
 */
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { sql } from 'kysely';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestDatabase, snapshotDatabase, testBackends } from '../helpers/database.ts';

interface Hostile {
  name: string;
  request: InjectOptions;
}

const long = 'x'.repeat(10_000);
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const json = { 'content-type': 'application/json' };
const origin = 'http://localhost:3000';
const form = { 'content-type': 'application/x-www-form-urlencoded', origin };

/** Strings that must never reach a query unchecked or break a page. */
const nasty: Record<string, string> = {
  nul: 'a\u0000b',
  'only NUL': '\u0000',
  controls: '\u0001\u0007\u001b[31m\u007f',
  'CR LF': 'a\r\nSet-Cookie: x=1',
  'lone high surrogate': 'a\ud800b',
  'lone low surrogate': '\udfffz',
  '10k characters': long,
  'SQL fragment': "' OR 1=1; DROP TABLE users; --",
  'SQL in an address': "admin'--@example.com",
  'script tag': '<script>alert(1)</script>',
  'bidi override': '\u202egnp.exe',
};

/** Odd but legitimate as a display name (and an address): stored as text, shown escaped (tested below). */
const acceptableName = new Set(['SQL fragment', 'SQL in an address', 'script tag']);

function apiBodies(): Hostile[] {
  const list: Hostile[] = [];
  const base = {
    email: 'hostile@example.com',
    password: 'correct horse battery staple',
    displayName: 'Hostile',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  };
  // Every nasty string in every field of register and login.
  for (const [label, value] of Object.entries(nasty)) {
    for (const field of ['email', 'password', 'displayName'] as const) {
      // Refused either way: the nasty value, or terms not accepted when the value is acceptable.
      list.push({
        name: `register ${field}: ${label}`,
        request: {
          method: 'POST',
          url: '/api/auth/register',
          headers: json,
          payload: JSON.stringify({ ...base, acceptTerms: false, [field]: value }),
        },
      });
    }
    // Alone in an otherwise valid registration: must be refused by validation, never by the database.
    if (!acceptableName.has(label)) {
      list.push({
        name: `register email only: ${label}`,
        request: {
          method: 'POST',
          url: '/api/auth/register',
          headers: json,
          payload: JSON.stringify({ ...base, email: value }),
        },
      });
      list.push({
        name: `register displayName only: ${label}`,
        request: {
          method: 'POST',
          url: '/api/auth/register',
          headers: json,
          payload: JSON.stringify({
            ...base,
            email: `n${Object.keys(nasty).indexOf(label)}@example.com`,
            displayName: value,
          }),
        },
      });
    }
    list.push({
      name: `login email: ${label}`,
      request: {
        method: 'POST',
        url: '/api/auth/login',
        headers: json,
        payload: JSON.stringify({ email: value, password: 'x' }),
      },
    });
    list.push({
      name: `login password: ${label}`,
      request: {
        method: 'POST',
        url: '/api/auth/login',
        headers: json,
        payload: JSON.stringify({ email: 'existing@example.com', password: value }),
      },
    });
    list.push({
      name: `verify token: ${label}`,
      request: { method: 'POST', url: '/api/play/verify', headers: json, payload: JSON.stringify({ token: value }) },
    });
    list.push({
      name: `password reset email: ${label}`,
      request: {
        method: 'POST',
        url: '/api/auth/password-reset',
        headers: json,
        payload: JSON.stringify({ email: value }),
      },
    });
    list.push({
      name: `password reset token: ${label}`,
      request: {
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        headers: json,
        payload: JSON.stringify({ token: value, password: 'another long passphrase' }),
      },
    });
    list.push({
      name: `password reset password: ${label}`,
      request: {
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        headers: json,
        payload: JSON.stringify({ token: 'A'.repeat(43), password: value }),
      },
    });
    list.push({
      name: `self-exclusion period: ${label}`,
      request: {
        method: 'POST',
        url: '/api/account/self-exclusion',
        headers: json,
        payload: JSON.stringify({ period: value }),
      },
    });
  }
  // The exact reproduction.
  list.push({
    name: 'login with a NUL email (escaped in JSON)',
    request: { method: 'POST', url: '/api/auth/login', headers: json, payload: '{"email":"a\\u0000b","password":"x"}' },
  });
  list.push({
    name: 'register with a NUL in a JSON key',
    request: { method: 'POST', url: '/api/auth/register', headers: json, payload: '{"em\\u0000ail":"a@b.co"}' },
  });
  list.push({
    name: 'lone surrogate escape',
    request: {
      method: 'POST',
      url: '/api/auth/login',
      headers: json,
      payload: '{"email":"\\ud800@example.com","password":"\\udc00"}',
    },
  });

  const targets = [
    '/api/auth/register',
    '/api/auth/login',
    '/api/auth/logout',
    '/api/auth/password-reset',
    '/api/auth/password-reset/confirm',
    '/api/play',
    '/api/play/verify',
    '/api/account/self-exclusion',
  ];
  const malformed: Record<string, string> = {
    'unclosed object': '{',
    'half a pair': '{"email":',
    'unclosed array': '[1,2',
    'bare word': 'nul',
    'unterminated string': '"abc',
    'trailing brace': '{"a":1}}',
    'raw NUL': '{"email":"a\u0000"}',
    'BOM in front': '\ufeff{"email":"a@b.co"}',
    'a number': '42',
    null: 'null',
    'an array': '[]',
    'deep array (10000)': nested(10_000),
    'deep object (5000)': nestedObject(5_000),
    '__proto__ key': '{"__proto__":{"isAdmin":true},"email":"a@b.co","password":"x"}',
    'constructor key': '{"constructor":{"prototype":{"isAdmin":true}},"token":"x"}',
    'duplicate keys': '{"email":"a@b.co","email":"b@b.co","password":"x","password":"y"}',
  };
  for (const target of targets) {
    for (const [label, payload] of Object.entries(malformed)) {
      list.push({ name: `${target}: ${label}`, request: { method: 'POST', url: target, headers: json, payload } });
    }
  }
  const contentTypes = [
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/json;charset="UTF-7"',
    'application/jsonx',
    'application/json, text/html',
    'image/png',
    '',
    '; ;',
  ];
  for (const target of ['/api/auth/register', '/api/auth/login', '/api/play/verify']) {
    for (const type of contentTypes) {
      list.push({
        name: `${target}: content-type ${JSON.stringify(type)}`,
        request: {
          method: 'POST',
          url: target,
          headers: { 'content-type': type },
          payload: '{"email":"a@b.co","password":"x","token":"x"}',
        },
      });
    }
    // A whole valid registration or login: the charset alone must make it refused.
    for (const charset of ['utf-16', 'utf-16le', 'iso-8859-1']) {
      const valid = target.endsWith('register')
        ? { ...base, email: `charset-${charset}@example.com` }
        : { email: 'existing@example.com', password: 'correct horse battery staple' };
      list.push({
        name: `${target}: a valid body declared ${charset}`,
        request: {
          method: 'POST',
          url: target,
          headers: { 'content-type': `application/json; charset=${charset}` },
          payload: JSON.stringify(valid),
        },
      });
    }
    list.push({
      name: `${target}: 70 KB body`,
      request: { method: 'POST', url: target, headers: json, payload: JSON.stringify({ email: 'x'.repeat(70_000) }) },
    });
    list.push({
      name: `${target}: 2 MB body`,
      request: { method: 'POST', url: target, headers: json, payload: 'x'.repeat(2_000_000) },
    });
  }
  // Type confusion in every field.
  for (const value of [null, 0, -1, 1e308, true, [], ['a@b.co'], { $ne: '' }, { toString: 'x' }]) {
    list.push({
      name: `login email as ${JSON.stringify(value)}`,
      request: {
        method: 'POST',
        url: '/api/auth/login',
        headers: json,
        payload: JSON.stringify({ email: value, password: 'x' }),
      },
    });
    list.push({
      name: `register locale as ${JSON.stringify(value)}`,
      request: {
        method: 'POST',
        url: '/api/auth/register',
        headers: json,
        payload: JSON.stringify({ ...base, locale: value }),
      },
    });
  }
  return list;
}

function credentials(): Hostile[] {
  const list: Hostile[] = [];
  const bearers = [
    'Bearer',
    'Bearer ',
    'Bearer a b',
    `Bearer ${'x'.repeat(8_000)}`,
    'Bearer ../../../etc/passwd',
    "Bearer ' OR 1=1 --",
    'Basic YWRtaW46YWRtaW4=',
    'bearer\tAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'Bearer \u00ff\u00fe',
    'Negotiate xyz',
  ];
  const cookies = [
    `token=${'x'.repeat(8_000)}`,
    'token=%00',
    'token=a; token=b',
    '=;;=; ;',
    'token="quoted"',
    'lang=<script>',
    'lang=%ff%fe',
    'token=\u00e9\u00e8',
    `${'a'.repeat(1000)}=${'b'.repeat(1000)}`,
    'token=../../etc/passwd',
  ];
  for (const url of ['/api/auth/me', '/api/account', '/', '/th/account']) {
    for (const authorization of bearers)
      list.push({
        name: `${url} with Authorization ${JSON.stringify(authorization.slice(0, 30))}`,
        request: { method: 'GET', url, headers: { authorization } },
      });
    for (const cookie of cookies)
      list.push({
        name: `${url} with Cookie ${JSON.stringify(cookie.slice(0, 30))}`,
        request: { method: 'GET', url, headers: { cookie } },
      });
  }
  list.push({
    name: 'logout with a cookie only (another site)',
    request: {
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: 'token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', origin: 'https://evil.example' },
    },
  });
  list.push({
    name: 'request id with odd characters',
    request: { method: 'GET', url: '/', headers: { 'x-request-id': '<script>' } },
  });
  list.push({
    name: 'accept-language garbage',
    request: { method: 'GET', url: '/', headers: { 'accept-language': 'th;q=abc,,,;;;*;q=-1,' + 'x'.repeat(4000) } },
  });
  list.push({
    name: 'if-none-match garbage',
    request: {
      method: 'GET',
      url: '/asdas/_payload.json',
      headers: { 'if-none-match': '"\u00ff", W/, *, ' + 'x'.repeat(4000) },
    },
  });
  list.push({
    name: 'forwarded headers without trust',
    request: {
      method: 'GET',
      url: '/',
      headers: {
        'x-forwarded-for': '1.2.3.4, <script>',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'gopher',
      },
    },
  });
  return list;
}

function paths(): Hostile[] {
  const list: Hostile[] = [];
  const traversal = [
    '..%2f..%2fpackage.json',
    '%2e%2e%2f%2e%2e%2fpackage.json',
    '..%5c..%5cpackage.json',
    '%00',
    '%00.json',
    '..',
    '%2e%2e',
    '%252e%252e%252fpackage.json',
    '%ff%fe',
    '%E0%A4%A',
    'a'.repeat(600),
    '%0d%0aSet-Cookie:%20x=1',
    '..;/package.json',
  ];
  for (const part of traversal) {
    list.push({ name: `article slug ${part.slice(0, 20)}`, request: { method: 'GET', url: `/asdas/${part}` } });
    list.push({ name: `Thai article slug ${part.slice(0, 20)}`, request: { method: 'GET', url: `/th/asdas/${part}` } });
    list.push({ name: `catch-all ${part.slice(0, 20)}`, request: { method: 'GET', url: `/${part}/x` } });
    list.push({
      name: `payload ${part.slice(0, 20)}`,
      request: { method: 'GET', url: `/asdas/${part}/_payload.json` },
    });
    list.push({
      name: `icon collection ${part.slice(0, 20)}`,
      request: { method: 'GET', url: `/api/_nuxt_icon/${part}.json?icons=home` },
    });
    list.push({ name: `build meta ${part.slice(0, 20)}`, request: { method: 'GET', url: `/builds/meta/${part}` } });
    list.push({ name: `asset ${part.slice(0, 20)}`, request: { method: 'GET', url: `/assets/${part}` } });
  }
  const queries = [
    '/login?redirect=//evil.example',
    '/login?redirect=javascript:alert(1)',
    '/login?redirect=%0d%0aLocation:%20https://evil.example',
    '/login?redirect=/\\evil.example',
    `/login?redirect=${'a'.repeat(5000)}`,
    '/asdas?page=-1',
    '/asdas?page=99999999999999999999',
    '/asdas?page[]=1&page[x]=2',
    '/asdas?__proto__[x]=1&constructor[prototype][y]=2',
    `/api/_nuxt_icon/mdi.json?icons=${Array.from({ length: 2000 }, (_, index) => `i${index}`).join(',')}`,
    '/api/_nuxt_icon/mdi.json?icons[]=home&icons[]=account',
    '/api/_nuxt_icon/mdi.json?icons=%00',
    '/api/_nuxt_icon/mdi.json?icons=../../package',
    '/?%00=%00',
    '/?a=%',
  ];
  for (const url of queries) list.push({ name: `query ${url.slice(0, 60)}`, request: { method: 'GET', url } });
  const methods: Array<[InjectOptions['method'], string]> = [
    ['PUT', '/'],
    ['DELETE', '/api/auth/me'],
    ['PATCH', '/api/auth/login'],
    ['OPTIONS', '/'],
    ['OPTIONS', '/api/auth/login'],
    ['TRACE', '/'],
    ['PROPFIND', '/'],
    ['SEARCH', '/asdas'],
    ['HEAD', '/api/auth/me'],
    ['HEAD', '/asdas/%00'],
    ['DELETE', '/'],
    ['PUT', '/api/play'],
    ['GET', '/api/auth/login'],
    ['GET', '/api/play/verify'],
  ];
  for (const [method, url] of methods) list.push({ name: `${method} ${url}`, request: { method, url } });
  return list;
}

function forms(): Hostile[] {
  const list: Hostile[] = [];
  // The reproduction, then every page form with hostile fields.
  list.push({
    name: 'form login with NUL email and password',
    request: { method: 'POST', url: '/login', headers: form, payload: 'email=%00&password=%00' },
  });
  // A lone surrogate has no UTF-8 form: a browser would not send one, a hostile client sends the
  // bytes of one (ED A0 80), which are not valid UTF-8.
  const formEncode = (value: string) =>
    value
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
      .join('')
      .replace(/%20/g, '+');
  const encoded = Object.entries(nasty).map(([label, value]) => [label, formEncode(value)] as const);
  for (const [label, value] of encoded) {
    list.push({
      name: `form login: ${label}`,
      request: { method: 'POST', url: '/login', headers: form, payload: `email=${value}&password=${value}` },
    });
    list.push({
      name: `form registration: ${label}`,
      request: {
        method: 'POST',
        url: '/registration',
        headers: form,
        payload: `email=${value}&password=${value}&displayName=${value}`,
      },
    });
    list.push({
      name: `form Thai registration: ${label}`,
      request: {
        method: 'POST',
        url: '/th/registration',
        headers: form,
        payload: `email=${value}&password=correct+horse+battery&displayName=${value}&acceptTerms=on`,
      },
    });
    list.push({
      name: `form forgotten password: ${label}`,
      request: { method: 'POST', url: '/forgot-password', headers: form, payload: `email=${value}` },
    });
    list.push({
      name: `form new password: ${label}`,
      request: { method: 'POST', url: '/reset-password', headers: form, payload: `token=${value}&password=${value}` },
    });
    list.push({ name: `reset link: ${label}`, request: { method: 'GET', url: `/reset-password?token=${value}` } });
    list.push({
      name: `form take a break: ${label}`,
      request: { method: 'POST', url: '/account', headers: form, payload: `period=${value}&step=confirm` },
    });
  }
  const bodies = [
    'a=%',
    'email=%E0%A4%A&password=%ZZ',
    '&&&===&&',
    '__proto__[admin]=1&email=a%40b.co&password=x',
    'constructor[prototype][admin]=1&email=a%40b.co&password=x',
    'email=a%40b.co&email=b%40b.co&password=x&password=y',
    `email=${'x'.repeat(70_000)}`,
    '\u0000\u0001',
  ];
  for (const body of bodies)
    list.push({
      name: `form login body ${JSON.stringify(body.slice(0, 30))}`,
      request: { method: 'POST', url: '/login', headers: form, payload: body },
    });
  for (const type of [
    'application/x-www-form-urlencoded; charset=utf-16',
    'text/plain',
    'application/json',
    'multipart/form-data; boundary=x',
  ]) {
    list.push({
      name: `form login as ${type}`,
      request: {
        method: 'POST',
        url: '/login',
        headers: { ...form, 'content-type': type },
        payload: 'email=a%40b.co&password=x',
      },
    });
  }
  for (const claimed of ['null', 'https://evil.example', 'http://localhost:3000.evil.example', '']) {
    list.push({
      name: `form logout from origin ${JSON.stringify(claimed)}`,
      request: { method: 'POST', url: '/logout', headers: { ...form, origin: claimed }, payload: '' },
    });
  }
  list.push({
    name: 'form post to a page without a form',
    request: { method: 'POST', url: '/asdas', headers: form, payload: 'a=1' },
  });
  list.push({
    name: 'form post to a missing page',
    request: { method: 'POST', url: '/no/such/page', headers: form, payload: 'a=1' },
  });
  return list;
}

const stackPatterns = [/\n\s+at [^\n]*:\d+:\d+/, /node_modules\//, /\.(?:ts|js|mjs):\d+:\d+/];

const requests = [...apiBodies(), ...credentials(), ...paths(), ...forms()];
t.ok(requests.length >= 150, `${requests.length} hostile requests per database`);

for (const backend of testBackends()) {
  t.test(backend, async (t) => {
    const database = await createTestDatabase(backend);
    const dataDir = mkdtempSync(join(tmpdir(), 'asdas-hostile-'));
    const logs: Array<{ level: number; msg?: string; err?: unknown }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line) as { level: number });
        done();
      },
    });
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PUBLIC_URL: origin,
      HEADERS_TIMEOUT_MS: '1000',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      REQUEST_TIMEOUT_MS: '2000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
    });
    const app: FastifyInstance = await buildApp({
      config,
      logger: createLogger(config.logLevel, sink),
      database: { db: database.db },
      accounts: { passwordHashing: testHashing },
      rateLimits: {
        limits: {
          loginFailuresPerAccountAndAddress: { max: 1_000_000, windowMs: 60_000 },
          loginFailuresPerAddress: { max: 1_000_000, windowMs: 60_000 },
          loginFailuresPerAccount: { max: 1_000_000, windowMs: 60_000 },
          playVerifyPerIp: { max: 1_000_000, windowMs: 60_000 },
        },
      },
    });
    t.teardown(async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);

    // Someone who already has an account and a session: nothing below may change them.
    const existing = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        email: 'existing@example.com',
        password: 'correct horse battery staple',
        displayName: 'Existing',
        locale: 'en',
        acceptTerms: true,
        confirmAge: true,
      },
    });
    t.equal(existing.statusCode, 201);
    const token = /token=([^;]+)/.exec(String(existing.headers['set-cookie']))![1]!;
    // Registration sends its verification email (and stores the link) after the answer.
    await app.jobs.settled();
    const before = await snapshotDatabase(database.db);

    t.test('each hostile request: below 500, no stack in the answer', async (t) => {
      const failures: string[] = [];
      for (const hostile of requests) {
        const response = await app.inject(hostile.request);
        if (response.statusCode >= 500)
          failures.push(`${hostile.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        const leaked = stackPatterns.find((pattern) => pattern.test(response.body));
        if (leaked) failures.push(`${hostile.name}: stack in the body (${leaked})`);
        if (/set-cookie: x=1/i.test(JSON.stringify(response.headers)))
          failures.push(`${hostile.name}: a header was injected`);
      }
      t.same(failures, [], `${requests.length} requests`);
    });

    t.test('the same with the session of the existing account (authenticated paths)', async (t) => {
      const authenticated = requests.filter(
        (hostile) =>
          /\/api\/(play|account)|\/account|\/logout/.test(String(hostile.request.url)) &&
          // Logging out is what a logout does, and Play with a JSON `null` body is a valid Play
          // (the body is optional): keep the session and the play history as they are.
          !/logout/.test(String(hostile.request.url)) &&
          hostile.name !== '/api/play: null',
      );
      const failures: string[] = [];
      for (const hostile of authenticated) {
        const headers = { ...(hostile.request.headers as Record<string, string>), authorization: `Bearer ${token}` };
        const response = await app.inject({ ...hostile.request, headers });
        if (response.statusCode >= 500)
          failures.push(`${hostile.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        if (stackPatterns.some((pattern) => pattern.test(response.body)))
          failures.push(`${hostile.name}: stack in the body`);
      }
      t.ok(authenticated.length > 20, `${authenticated.length} requests`);
      t.same(failures, []);
    });

    /** Sends raw bytes on a new connection; resolves with what came back when the server closes it. */
    const raw = (bytes: string | Buffer, options: { keepOpen?: boolean } = {}) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => {
          answer += String(chunk);
          // One answer is all we wait for unless the server is expected to close by itself.
          if (!options.keepOpen && /\r\n\r\n/.test(answer)) socket.end();
        });
        socket.on('error', reject);
        socket.on('close', () => resolve(answer));
        socket.write(bytes);
      });
    const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

    t.test('raw requests: CRLF, oversized headers, broken chunking, bad request lines', async (t) => {
      const cases: Array<[string, string]> = [
        ['CR inside a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\rb\r\n\r\n'],
        ['LF inside a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-Test: a\nInjected: b\r\n\r\n'],
        ['header of 20 KB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
        [
          '1000 headers',
          `GET / HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 1000 }, (_, index) => `X-H${index}: v`).join('\r\n')}\r\n\r\n`,
        ],
        ['NUL in the path', 'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n'],
        ['space in the path', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n'],
        ['HTTP/0.9 style', 'GET /\r\n\r\n'],
        ['unknown version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
        [
          'both Content-Length and chunked',
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        ],
        [
          'negative Content-Length',
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n',
        ],

        [
          'bad chunk size',
          'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        ],
        [
          'bad chunk to register',
          'POST /api/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nqq\r\n',
        ],
        [
          'bad chunk to a form',
          'POST /login HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:3000\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=1\r\n-5\r\n',
        ],
      ];
      for (const [name, bytes] of cases) {
        const answer = await raw(bytes);
        const status = statusOf(answer);
        t.ok(status === 0 || status < 500, `${name}: ${status || 'connection closed'}`);
        t.notOk(
          stackPatterns.some((pattern) => pattern.test(answer)),
          `${name}: no stack`,
        );
      }
      // A body that never finishes arriving is cut off by REQUEST_TIMEOUT_MS.
      const unfinished = await raw(
        'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{}',
        { keepOpen: true },
      );
      t.equal(statusOf(unfinished), 408, 'a body shorter than its Content-Length: 408 once the request timeout passes');
      // The server is fine afterwards.
      t.equal(statusOf(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')), 200);
    });

    t.test('a client that trickles its headers is cut off (HEADERS_TIMEOUT_MS)', async (t) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      // A header line every 200 ms would keep it open forever without the timeout.
      const trickle = setInterval(() => socket.write(`X-Slow-${Date.now()}: 1\r\n`), 200);
      await new Promise<void>((resolve) => socket.on('close', () => resolve()));
      clearInterval(trickle);
      t.match(answer, /^HTTP\/1\.1 408 /, 'answered 408 Request Timeout, then closed');
    });

    t.test('the database holds exactly what it held before', async (t) => {
      await app.jobs.settled();
      t.equal(await snapshotDatabase(database.db), before);
      const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
      t.equal(me.statusCode, 200, 'the existing session still works');
    });

    t.test('odd but legitimate names are stored as text and shown escaped', async (t) => {
      const registration = {
        email: "o'brien--@example.com",
        password: 'correct horse battery staple',
        displayName: "<script>alert(1)</script>'); DROP TABLE users; --",
        locale: 'en',
        acceptTerms: true,
        confirmAge: true,
      };
      const created = await app.inject({ method: 'POST', url: '/api/auth/register', payload: registration });
      t.equal(created.statusCode, 201);
      t.equal(created.json().user.displayName, registration.displayName, 'stored verbatim');
      const session = /token=([^;]+)/.exec(String(created.headers['set-cookie']))![1]!;
      const page = await app.inject({ url: '/account', headers: { cookie: `token=${session}` } });
      t.equal(page.statusCode, 200);
      t.notMatch(page.body, /<script>alert\(1\)/, 'never as markup');
      const count = await sql<{ n: number }>`select count(*) as n from users`.execute(database.db);
      t.equal(Number(count.rows[0]!.n), 2, 'the users table is intact');
    });

    t.test('nothing was logged at error level', async (t) => {
      const errors = logs.filter((line) => line.level >= 50);
      t.same(
        errors.map((line) => line.msg),
        [],
        'no error lines a client could cause at will',
      );
    });
  });
}
