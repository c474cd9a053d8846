import {
  type Attributes,
  context,
  propagation,
  type Span,
  SpanKind,
  type SpanStatus,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { loggingErrorHandler, setGlobalErrorHandler } from '@opentelemetry/core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  RandomIdGenerator,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import {
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import type { TraceIds } from './logger.ts';

// The OpenTelemetry SDK, imported only with an OTLP endpoint (decision 0051); it reads the
// standard variables itself. Requests are @fastify/otel's spans, PostgreSQL's instrumentation-pg's.

export type TracesProtocol = 'http/protobuf' | 'http/json';

function fail(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** `SELECT users`: the operation and the first table, as OpenTelemetry's database spans are named. */
export function describeQuery(text: string): { operation: string | undefined; table: string | undefined } {
  const operation = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase();
  const table = /^(SELECT|INSERT|UPDATE|DELETE)$/.test(operation ?? '')
    ? /\b(?:from|into|update)\s+"?([\w$]+)"?(?:\s*\.\s*"?([\w$]+)"?)?/i.exec(text)
    : null;
  return { operation, table: table ? (table[2] ?? table[1]) : undefined };
}

function nameQuery(span: Span, text: string): void {
  const { operation, table } = describeQuery(text);
  if (operation) span.setAttribute(ATTR_DB_OPERATION_NAME, operation);
  if (table) span.setAttribute(ATTR_DB_COLLECTION_NAME, table);
  if (operation) span.updateName(table ? `${operation} ${table}` : operation);
}

/** A request's ids, drawn when its logger is made, so that Fastify's "incoming request" line has them. */
const random = new RandomIdGenerator();
const reserved: Partial<TraceIds> = {};
const idGenerator = {
  generateTraceId: () => take('trace_id') ?? random.generateTraceId(),
  generateSpanId: () => take('span_id') ?? random.generateSpanId(),
};
function take(id: keyof TraceIds): string | undefined {
  const value = reserved[id];
  delete reserved[id];
  return value;
}

/** A 4xx is no server span's failure (@fastify/otel marks any thrown error); a query's SQLSTATE, named only in instrumentation-pg's message, is its error type. */
const serverSpanStatus: SpanProcessor = {
  onStart: () => {},
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
  onEnding(span) {
    const message = span.events.find((event) => event.name === 'exception')?.attributes?.['exception.message'];
    const sqlState =
      span.kind === SpanKind.CLIENT && /^PostgreSQL error .*\(code: ([0-9A-Z]{5})\)$/.exec(String(message));
    if (sqlState) span.setAttributes({ [ATTR_DB_RESPONSE_STATUS_CODE]: sqlState[1], [ATTR_ERROR_TYPE]: sqlState[1] });
    const status = span.attributes[ATTR_HTTP_RESPONSE_STATUS_CODE];
    if (span.kind !== SpanKind.SERVER || typeof status !== 'number') return;
    // Still the SDK's mutable span while it ends (setStatus ignores UNSET).
    if (status < 500) (span as { status: SpanStatus }).status = { code: SpanStatusCode.UNSET };
    else if (span.attributes[ATTR_ERROR_TYPE] === undefined) span.setAttribute(ATTR_ERROR_TYPE, String(status));
  },
};

export interface TracingOptions {
  protocol: TracesProtocol;
  serviceVersion: string | undefined;
  /** A failed export (the collector is away), at most once a minute. */
  onExportError: (error: unknown) => void;
}

export class Tracing {
  readonly #tracer = trace.getTracer('asdas-site');
  readonly #pg = new PgInstrumentation({
    enabled: false,
    requestHook: (span, { query }) => nameQuery(span, query.text),
  });
  constructor(readonly provider: NodeTracerProvider) {}

  /** A request's ids for its logger, before its span exists: `startingWith` gives them to that span. */
  reserveIds(headers: Record<string, unknown>): TraceIds {
    const parent = trace.getSpanContext(propagation.extract(context.active(), headers));
    const traceId = parent && trace.isSpanContextValid(parent) ? parent.traceId : random.generateTraceId();
    return { trace_id: traceId, span_id: random.generateSpanId() };
  }

  startingWith(ids: TraceIds, work: () => void): void {
    Object.assign(reserved, ids);
    try {
      work();
    } finally {
      delete reserved.trace_id;
      delete reserved.span_id;
    }
  }

  activeIds(): TraceIds | undefined {
    const span = trace.getSpan(context.active())?.spanContext();
    return span && trace.isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
  }

  /** PostgreSQL's queries as spans, patched where `pg` is loaded: the bundle holds no hook to patch it. */
  instrumentPg(pg: object): void {
    for (const definition of this.#pg.getModuleDefinitions()) if (definition.name === 'pg') definition.patch?.(pg);
  }

  /** Runs `work` in a child span of the active one; a throw marks it failed and passes on. */
  inSpan<T>(name: string, options: { kind?: 'internal' | 'client'; attributes?: Attributes }, work: (span: Span) => T) {
    const kind = options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL;
    return this.#tracer.startActiveSpan(name, { kind, attributes: options.attributes ?? {} }, (span): T => {
      const failed = (error: unknown) => {
        fail(span, error);
        span.end();
        throw error;
      };
      try {
        const result = work(span);
        if (result instanceof Promise) {
          return result.then((value: unknown) => {
            span.end();
            return value;
          }, failed) as T;
        }
        span.end();
        return result;
      } catch (error) {
        return failed(error);
      }
    });
  }

  /** A SQLite query that has just ended (Kysely reports afterwards), as a span started `durationMs` ago. */
  recordQuery(query: { text: string; durationMs: number; error?: unknown }): void {
    const end = performance.timeOrigin + performance.now();
    const attributes = { [ATTR_DB_SYSTEM_NAME]: 'sqlite', [ATTR_DB_QUERY_TEXT]: query.text };
    const span = this.#tracer.startSpan('sqlite', {
      kind: SpanKind.CLIENT,
      attributes,
      startTime: end - query.durationMs,
    });
    nameQuery(span, query.text);
    if (query.error !== undefined) {
      // SQLite's code when the driver gives one (`SQLITE_CONSTRAINT_UNIQUE`).
      const code = query.error instanceof Error && 'code' in query.error ? query.error.code : undefined;
      if (typeof code === 'string') span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, code);
      span.setAttribute(ATTR_ERROR_TYPE, typeof code === 'string' ? code : (query.error as Error).name);
      fail(span, query.error);
    }
    span.end(end);
  }

  /** An HTTP call to another service: `work` reports the answer's status, or the kind of failure. */
  httpClient<T>(method: string, url: string, work: (report: CallReport) => Promise<T>): Promise<T> {
    const { hostname, port, protocol } = new URL(url);
    const attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_URL_FULL]: url,
      [ATTR_SERVER_ADDRESS]: hostname,
      [ATTR_SERVER_PORT]: Number(port) || (protocol === 'https:' ? 443 : 80),
    };
    return this.inSpan(method, { kind: 'client', attributes }, (span) => {
      // An error status names the failure; what the caller then says of it does not replace it.
      let failedStatus = false;
      return work({
        status: (code) => {
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, code);
          failedStatus = code >= 400;
          if (failedStatus) span.setAttribute(ATTR_ERROR_TYPE, String(code));
        },
        failure: (type) => void (failedStatus || span.setAttribute(ATTR_ERROR_TYPE, type)),
      });
    });
  }

  readonly fail = fail;

  /** Sends what is left within 2 s (a collector that is away must not hold shutdown), and unregisters. */
  async shutdown(): Promise<void> {
    const bound = new Promise<void>((resolve) => setTimeout(resolve, 2000).unref());
    await Promise.race([this.provider.shutdown(), bound]);
    for (const api of [trace, context, propagation]) api.disable();
    setGlobalErrorHandler(loggingErrorHandler());
  }
}

type CallReport = { status(code: number): void; failure(type: string): void };

/** The provider: batches (OTEL_BSP_*) to the OTLP/HTTP endpoint, with the API's globals set. */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  // Only the exporter of the protocol in use is loaded. The server bundle loads its CommonJS build,
  // whose exports are only `default` (module.exports); Node, from the sources, its named ones.
  const loaded =
    options.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const { OTLPTraceExporter } =
    'OTLPTraceExporter' in loaded ? loaded : (loaded as unknown as { default: typeof loaded }).default;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) win over our defaults.
  const ours = { [ATTR_SERVICE_NAME]: 'asdas-site', [ATTR_SERVICE_VERSION]: options.serviceVersion };
  const resource = defaultResource()
    .merge(resourceFromAttributes(ours))
    .merge(detectResources({ detectors: [envDetector] }));
  let lastWarning = 0;
  setGlobalErrorHandler((error) => {
    if (Date.now() - lastWarning < 60_000) return;
    lastWarning = Date.now();
    options.onExportError(error);
  });
  const provider = new NodeTracerProvider({
    resource,
    idGenerator,
    spanProcessors: [serverSpanStatus, new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return new Tracing(provider);
}
