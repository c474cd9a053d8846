/**
 * OpenTelemetry tracing (decisions 0034, 0051): off, nothing of it is loaded; on, the spans of requests,
 * page renders, database queries, emails and the icon upstream reach an OTLP/HTTP receiver this
 * test runs, with the parents and attributes an operator reads, and log lines carry their ids.
 * Serves the production build (`npm run build` first).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { PasswordHasher, testHashing } from '../../lib/auth/passwords.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { validRegistration } from '../helpers/accounts.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { createTestDatabase, postgresUrl } from '../helpers/database.ts';

const browser = { accept: 'text/html', 'user-agent': browserUserAgent };

/** The OpenTelemetry packages (and @fastify/otel) this process has loaded: CommonJS, in `require.cache`. */
function loadedOpenTelemetry(): string[] {
  const names = new Set<string>();
  for (const path of Object.keys(createRequire(import.meta.url).cache)) {
    const name = /[\\/]node_modules[\\/](@opentelemetry[\\/][^\\/]+|@fastify[\\/]otel)[\\/]/.exec(path)?.[1];
    if (name) names.add(name.replace('\\', '/'));
  }
  return [...names].sort();
}

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, string | number | boolean>;
  events: { name: string; attributes: Record<string, string | number | boolean> }[];
  status: { code: number; message?: string };
  resource: Record<string, string | number | boolean>;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    out[key] =
      value.stringValue ??
      (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue!));
  }
  return out;
}

/** OTLP/JSON ids are hex; base64 is accepted too. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 16 || id.length === 32)
    ? id.toLowerCase()
    : Buffer.from(id, 'base64').toString('hex');
}

/**
 * An OTLP/HTTP receiver on a real socket: collects the JSON posted to /v1/traces. Any other GET is
 * the icon upstream, answering a set with the icon `star`.
 */
async function startReceiver() {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const waiters = new Set<() => void>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    if (request.method === 'GET') {
      const prefix = url.pathname.slice(1).replace(/\.json$/, '');
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ prefix, width: 24, height: 24, icons: { star: { body: '<path d="M1 1h1"/>' } } }));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      contentTypes.add(String(request.headers['content-type']));
      if (url.pathname !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: {
            spans: {
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              traceState?: string;
              name: string;
              kind: number;
              startTimeUnixNano: string;
              endTimeUnixNano: string;
              attributes?: OtlpAttribute[];
              events?: { name: string; attributes?: OtlpAttribute[] }[];
              status?: { code?: number; message?: string };
            }[];
          }[];
        }[];
      };
      for (const { resource, scopeSpans } of body.resourceSpans) {
        for (const scope of scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              traceState: span.traceState ?? '',
              name: span.name,
              kind: span.kind,
              start: BigInt(span.startTimeUnixNano),
              end: BigInt(span.endTimeUnixNano),
              attributes: attributesOf(span.attributes),
              events: (span.events ?? []).map((event) => ({
                name: event.name,
                attributes: attributesOf(event.attributes),
              })),
              status: {
                code: span.status?.code ?? 0,
                ...(span.status?.message ? { message: span.status.message } : {}),
              },
              resource: attributesOf(resource.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    contentTypes,
    /** Resolves once the spans received satisfy `found` (checked on each export). */
    async waitFor<T>(what: string, found: (spans: ReceivedSpan[]) => T | undefined): Promise<T> {
      const now = found(spans);
      if (now !== undefined) return now;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} among the spans received: ${spans.map((span) => span.name).join(', ')}`));
        }, 30_000);
        const check = () => {
          const result = found(spans);
          if (result === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(result);
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The server span of the request whose id is `requestId`. */
function requestSpan(receiver: Receiver, requestId: string): Promise<ReceivedSpan> {
  return receiver.waitFor(`request span of ${requestId}`, (spans) =>
    spans.find((span) => span.kind === 2 && span.attributes['asdas.request_id'] === requestId),
  );
}

function childrenOf(receiver: Receiver, parent: ReceivedSpan): ReceivedSpan[] {
  return receiver.spans.filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);
}

t.test("the configuration: OpenTelemetry's own variables, checked at start", async (t) => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
  t.equal(loadConfig({}).tracing, undefined, 'off without an endpoint');
  t.same(loadConfig(endpoint).tracing, { protocol: 'http/protobuf' }, "protobuf, the specification's default");
  t.same(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).tracing, {
    protocol: 'http/protobuf',
  });
  t.same(loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).tracing, { protocol: 'http/json' });
  t.same(
    loadConfig({
      ...endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    }).tracing,
    { protocol: 'http/protobuf' },
    'the traces variable wins',
  );
  t.equal(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }).tracing, undefined, 'OTEL_SDK_DISABLED turns it off');
  t.throws(() => loadConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), ConfigError);
  t.throws(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), /OTEL_EXPORTER_OTLP_ENDPOINT/);
  t.throws(() => loadConfig({ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' }), /OTEL_TRACES_SAMPLER/);
});

t.test('off without an endpoint: nothing of OpenTelemetry is loaded, no hook, no ids in the logs', async (t) => {
  const { app, logs, close } = await startTestApp();
  t.teardown(close);
  const response = await app.inject({ url: '/asdas', headers: { ...browser, 'x-request-id': 'untraced-1' } });
  t.equal(response.statusCode, 200);
  t.notOk(app.hasDecorator('tracing'), 'no tracing decorator');
  // prom-client loads the API itself (for exemplars): only the SDK's packages tell.
  t.same(
    loadedOpenTelemetry().filter((name) => name !== '@opentelemetry/api'),
    [],
    'no OpenTelemetry SDK package loaded',
  );
  const lines = logs.filter((line) => line.reqId === 'untraced-1');
  t.ok(lines.length >= 2, 'the request was logged');
  t.notOk(
    lines.some((line) => 'trace_id' in line),
    'no trace ids in log lines',
  );
});

t.test('on: requests, renders, queries, emails and the icon upstream as spans at the OTLP endpoint', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const otel = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_SERVICE_NAME: 'asdas-tracing-test',
    // Exports every 50 ms, so spans that end after the answer (emails) arrive without waiting long.
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
  // The SDK reads its variables from the process's environment, as the server does.
  Object.assign(process.env, otel);
  t.teardown(() => {
    for (const name of Object.keys(otel)) delete process.env[name];
  });
  const { app, logs, close } = await startTestApp(
    { ...otel, ICON_UPSTREAM_URL: receiver.url, PAGE_CACHE_TTL_MS: '0' },
    {
      databaseFromConfig: true,
      accounts: { passwordHasher: new PasswordHasher(testHashing), sweepIntervalMs: 0 },
      extraRoutes: (app: FastifyInstance) => {
        app.get('/test/tracing/async', async () => {
          await new Promise((resolve) => setImmediate(resolve));
          await app.tracing.inSpan('probe after await', {}, async () => {
            await new Promise((resolve) => setImmediate(resolve));
          });
          return { ok: true };
        });
        app.get('/test/tracing/boom', async () => {
          throw new Error('boom for tracing');
        });
      },
    },
  );
  t.teardown(close);

  t.test('only the JSON exporter is loaded', async (t) => {
    const loaded = loadedOpenTelemetry();
    t.ok(loaded.includes('@opentelemetry/sdk-trace-node'));
    t.ok(loaded.includes('@fastify/otel'));
    t.ok(loaded.includes('@opentelemetry/exporter-trace-otlp-http'));
    t.notOk(loaded.includes('@opentelemetry/exporter-trace-otlp-proto'));
  });

  t.test('a page continues the incoming trace; its render is a child span', async (t) => {
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const response = await app.inject({
      url: '/th/asdas/rtp-explained',
      headers: {
        ...browser,
        'x-request-id': 'traced-page-1',
        traceparent: `00-${traceId}-${parentId}-01`,
        tracestate: 'proxy=abc',
      },
    });
    t.equal(response.statusCode, 200);
    const request = await requestSpan(receiver, 'traced-page-1');
    t.equal(request.name, 'GET /th/asdas/:slug', 'named by the page pattern, not the path');
    t.equal(request.traceId, traceId, "the proxy's trace");
    t.equal(request.parentSpanId, parentId, "the proxy's span is the parent");
    t.equal(request.traceState, 'proxy=abc', 'tracestate is kept');
    t.match(request.attributes, {
      'http.request.method': 'GET',
      'http.route': '/th/asdas/:slug',
      'http.response.status_code': 200,
      'url.path': '/th/asdas/rtp-explained',
      'asdas.request_id': 'traced-page-1',
    });
    t.equal(request.status.code, 0, 'not an error');
    t.match(request.resource, { 'service.name': 'asdas-tracing-test' }, 'OTEL_SERVICE_NAME names the service');
    const render = await receiver.waitFor('render span', () =>
      childrenOf(receiver, request).find((span) => span.name === 'render article'),
    );
    t.equal(render.kind, 1);
    t.match(render.attributes, { 'asdas.page': 'article' });

    const lines = logs.filter((line) => line.reqId === 'traced-page-1');
    t.same(
      lines.map((line) => line.msg),
      ['incoming request', 'request completed'],
    );
    for (const line of lines) t.match(line, { trace_id: traceId, span_id: request.spanId }, `${String(line.msg)}`);

    const payload = await app.inject({ url: '/asdas/rtp-explained/_payload.json', headers: { 'x-request-id': 'p-1' } });
    t.equal(payload.statusCode, 200);
    t.equal((await requestSpan(receiver, 'p-1')).name, 'GET /asdas/:slug/_payload.json');
  });

  t.test('an API call with a body: its queries and its email are children of its span', async (t) => {
    const registration = validRegistration();
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-request-id': 'traced-register-1' },
      payload: registration,
    });
    t.equal(response.statusCode, 201);
    const request = await requestSpan(receiver, 'traced-register-1');
    t.equal(request.name, 'POST /api/auth/register');
    t.equal(request.parentSpanId, '', 'a new trace without traceparent');
    t.match(request.attributes, { 'http.route': '/api/auth/register', 'http.response.status_code': 201 });

    const email = await receiver.waitFor('email span', () =>
      childrenOf(receiver, request).find((span) => span.name === 'send email'),
    );
    t.match(email.attributes, {
      'asdas.email.kind': 'verifyEmail',
      'asdas.email.transport': 'outbox',
      'asdas.email.attempt': 1,
    });
    const queries = childrenOf(receiver, request).filter((span) => span.attributes['db.system.name'] === 'sqlite');
    const insert = queries.find((span) => span.name === 'INSERT users');
    t.ok(insert, `the user's insert is a child (${queries.map((span) => span.name).join(', ')})`);
    t.equal(insert?.kind, 3, 'a client span');
    t.match(insert?.attributes, { 'db.operation.name': 'INSERT', 'db.collection.name': 'users' });
    t.match(String(insert?.attributes['db.query.text']), /values \(\?/, 'the text has placeholders');
    for (const query of queries) {
      t.notOk(String(query.attributes['db.query.text']).includes(registration.email as string), 'never the values');
      t.ok(query.end > query.start, `${query.name} has a duration`);
    }

    // Logged before the email's span ended, so it is there once the span is.
    const mailLine = logs.find((line) => line.component === 'mail' && line.kind === 'verifyEmail');
    t.match(
      mailLine,
      { trace_id: request.traceId, span_id: email.spanId },
      "the mail log line carries the email's span",
    );
  });

  t.test('a lookup in a hook after the body and work after an await keep the request as parent', async (t) => {
    const me = await app.inject({
      url: '/api/auth/me',
      headers: { 'x-request-id': 'traced-me-1', authorization: `Bearer ${randomBytes(32).toString('base64url')}` },
    });
    t.equal(me.statusCode, 401);
    const meSpan = await requestSpan(receiver, 'traced-me-1');
    t.equal(meSpan.status.code, 0, 'a 401 is not a server error');
    const lookups = childrenOf(receiver, meSpan).map(
      (span) => `${span.name}: ${String(span.attributes['db.query.text'])}`,
    );
    t.ok(
      lookups.some((name) => name.startsWith('SELECT sessions')),
      `the session lookup (a preHandler hook) is the request's child (${lookups.join('; ')})`,
    );

    // Two at once: each probe finds its own request as parent.
    const [first, second] = await Promise.all(
      ['traced-async-1', 'traced-async-2'].map((id) =>
        app.inject({ url: '/test/tracing/async', headers: { 'x-request-id': id } }),
      ),
    );
    t.equal(first?.statusCode, 200);
    t.equal(second?.statusCode, 200);
    for (const id of ['traced-async-1', 'traced-async-2']) {
      const request = await requestSpan(receiver, id);
      const probe = await receiver.waitFor(`probe of ${id}`, () =>
        childrenOf(receiver, request).find((span) => span.name === 'probe after await'),
      );
      t.ok(probe, `${id}: the span started after an await is the request's child`);
    }
  });

  t.test('a server error marks the span failed', async (t) => {
    const response = await app.inject({ url: '/test/tracing/boom', headers: { 'x-request-id': 'traced-boom-1' } });
    t.equal(response.statusCode, 500);
    const request = await requestSpan(receiver, 'traced-boom-1');
    t.equal(request.name, 'GET /test/tracing/boom');
    t.equal(request.status.code, 2, 'status ERROR');
    t.match(request.attributes, { 'http.response.status_code': 500, 'error.type': 'Error' });
    t.match(request.events, [{ name: 'exception', attributes: { 'exception.message': 'boom for tracing' } }]);
  });

  t.test('the icon upstream call is a client span of the request', async (t) => {
    const response = await app.inject({
      url: '/api/_nuxt_icon/fake.json?icons=star',
      headers: { 'x-request-id': 'traced-icons-1' },
    });
    t.equal(response.statusCode, 200);
    const request = await requestSpan(receiver, 'traced-icons-1');
    t.equal(request.name, 'GET /api/_nuxt_icon/:collection');
    t.equal(request.attributes['url.path'], '/api/_nuxt_icon/fake.json', 'no query string');
    const upstream = await receiver.waitFor('upstream span', () =>
      childrenOf(receiver, request).find((span) => span.kind === 3),
    );
    t.match(upstream, {
      name: 'GET',
      attributes: {
        'http.request.method': 'GET',
        'http.response.status_code': 200,
        'url.full': `${receiver.url}/fake.json?icons=star`,
        'server.address': '127.0.0.1',
      },
    });
  });

  t.test('spans went out as OTLP/JSON', async (t) => {
    t.same([...receiver.contentTypes], ['application/json']);
  });
});

t.test(
  'PostgreSQL: queries as client spans, a failed one with its SQLSTATE',
  { skip: postgresUrl() ? false : 'TEST_DATABASE_URL is not set' },
  async (t) => {
    const database = await createTestDatabase('postgres');
    t.teardown(() => database.close());
    const receiver = await startReceiver();
    t.teardown(() => receiver.close());
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    Object.assign(process.env, otel, { OTEL_BSP_SCHEDULE_DELAY: '50' });
    t.teardown(() => {
      for (const name of [...Object.keys(otel), 'OTEL_BSP_SCHEDULE_DELAY']) delete process.env[name];
    });
    const { app, close } = await startTestApp(
      { ...otel, DATABASE_URL: database.url!, PLAY_SECRET: 'a'.repeat(32) },
      { databaseFromConfig: true, accounts: { passwordHasher: new PasswordHasher(testHashing), sweepIntervalMs: 0 } },
    );
    t.teardown(close);
    const registration = validRegistration();
    const register = (id: string) =>
      app.inject({ method: 'POST', url: '/api/auth/register', headers: { 'x-request-id': id }, payload: registration });
    t.equal((await register('pg-register-1')).statusCode, 201);
    t.equal((await register('pg-register-2')).statusCode, 409, 'the same email again');
    const request = await requestSpan(receiver, 'pg-register-2');
    const insert = await receiver.waitFor('the failed insert', () =>
      childrenOf(receiver, request).find(
        (span) => span.attributes['db.system.name'] === 'postgresql' && span.name === 'INSERT users',
      ),
    );
    t.equal(insert.kind, 3, 'a client span of the request');
    t.match(insert.attributes, { 'db.response.status_code': '23505', 'error.type': '23505' });
    t.notOk(String(insert.attributes['db.query.text']).includes(registration.email as string), 'never the values');
  },
);
