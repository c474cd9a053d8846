import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
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

/**
 * OpenTelemetry tracing, imported only with an OTLP endpoint (decision 0034); the SDK reads the
 * standard variables itself. Nothing is global: each app keeps its own provider and context.
 */

export type TracesProtocol = 'http/protobuf' | 'http/json';

/** What a span's failure records, whatever was thrown. */
function fail(span: Span, error: unknown): void {
  if (error instanceof Error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null | undefined)?.then === 'function';
}

/** `SELECT users`: the operation and the first table, as OpenTelemetry's database spans are named. */
export function describeQuery(text: string): { operation: string | undefined; table: string | undefined } {
  const operation = /^\s*([a-z]+)/i.exec(text)?.[1]?.toUpperCase();
  const table =
    operation === 'SELECT' || operation === 'INSERT' || operation === 'UPDATE' || operation === 'DELETE'
      ? /\b(?:from|into|update)\s+"?([\w$]+)"?(?:\s*\.\s*"?([\w$]+)"?)?/i.exec(text)
      : null;
  return { operation, table: table ? (table[2] ?? table[1]) : undefined };
}

/** A failed export is said once a minute at most: a collector that is away must not flood the log. */
class LoggedExporter implements SpanExporter {
  #lastWarning = 0;
  constructor(
    readonly inner: SpanExporter,
    readonly warn: (error: unknown) => void,
  ) {}
  export(spans: ReadableSpan[], done: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.FAILED && Date.now() - this.#lastWarning > 60_000) {
        this.#lastWarning = Date.now();
        this.warn(result.error);
      }
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export interface TracingOptions {
  protocol: TracesProtocol;
  serviceVersion: string | undefined;
  /** A failed export (the collector is away). */
  onExportError: (error: unknown) => void;
}

/** A request's span and the context that makes it the parent of what the request does. */
export interface RequestTrace {
  span: Span;
  context: Context;
}

/** How long shutdown waits for the last spans to leave: a collector that is away must not hold it. */
const shutdownTimeoutMs = 2000;

export class Tracing {
  readonly #provider: BasicTracerProvider;
  readonly #tracer: Tracer;
  readonly #contexts = new AsyncLocalStorageContextManager();
  readonly #propagator = new W3CTraceContextPropagator();

  constructor(provider: BasicTracerProvider) {
    this.#provider = provider;
    this.#tracer = provider.getTracer('asdas-site');
    this.#contexts.enable();
  }

  /** A request's span, continuing a W3C `traceparent` when one came; named by method until routed. */
  startRequest(method: string, headers: IncomingHttpHeaders): RequestTrace {
    const parent = this.#propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const span = this.#tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method } },
      parent,
    );
    return { span, context: trace.setSpan(parent, span) };
  }

  /** Runs `work` with `context` active: spans it starts, now or after an await, are its children. */
  within<T>(context: Context, work: () => T): T {
    return this.#contexts.with(context, work);
  }

  activeSpan(): Span | undefined {
    return trace.getSpan(this.#contexts.active());
  }

  /** For log lines: `span`'s ids (the active span's without one). */
  idsOf(span: Span | undefined = this.activeSpan()): TraceIds | undefined {
    const context = span?.spanContext();
    return context && isSpanContextValid(context) ? { trace_id: context.traceId, span_id: context.spanId } : undefined;
  }

  /** Runs `work` in a child span of the active one; a throw marks it failed and passes on. */
  inSpan<T>(
    name: string,
    options: { kind?: 'internal' | 'client'; attributes?: Attributes },
    work: (span: Span) => T,
  ): T {
    const parent = this.#contexts.active();
    const span = this.#tracer.startSpan(
      name,
      {
        kind: options.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
        ...(options.attributes ? { attributes: options.attributes } : {}),
      },
      parent,
    );
    let result: T;
    try {
      result = this.#contexts.with(trace.setSpan(parent, span), work, undefined, span);
    } catch (error) {
      fail(span, error);
      span.end();
      throw error;
    }
    if (!isPromiseLike(result)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        fail(span, error);
        span.end();
        throw error;
      },
    ) as T;
  }

  /** A query that has just ended (Kysely reports afterwards), as a span started `durationMs` ago. */
  recordQuery(query: { system: 'postgresql' | 'sqlite'; text: string; durationMs: number; error?: unknown }): void {
    const end = performance.timeOrigin + performance.now();
    const { operation, table } = describeQuery(query.text);
    const attributes: Attributes = {
      [ATTR_DB_SYSTEM_NAME]: query.system,
      [ATTR_DB_QUERY_TEXT]: query.text,
    };
    if (operation) attributes[ATTR_DB_OPERATION_NAME] = operation;
    if (table) attributes[ATTR_DB_COLLECTION_NAME] = table;
    const span = this.#tracer.startSpan(
      operation ? (table ? `${operation} ${table}` : operation) : query.system,
      { kind: SpanKind.CLIENT, attributes, startTime: end - query.durationMs },
      this.#contexts.active(),
    );
    if (query.error !== undefined) {
      // PostgreSQL's SQLSTATE or SQLite's code, when the driver gives one (`23505`: a unique key taken).
      const code = query.error instanceof Error && 'code' in query.error ? query.error.code : undefined;
      if (typeof code === 'string') span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, code);
      span.setAttribute(
        ATTR_ERROR_TYPE,
        typeof code === 'string' ? code : query.error instanceof Error ? query.error.name : 'error',
      );
      fail(span, query.error);
    }
    span.end(end);
  }

  /** An HTTP call to another service: `work` reports the answer's status, or the kind of failure. */
  httpClient<T>(
    method: string,
    url: string,
    work: (report: { status(code: number): void; failure(type: string): void }) => Promise<T>,
  ): Promise<T> {
    const { hostname, port, protocol } = new URL(url);
    return this.inSpan(
      method,
      {
        kind: 'client',
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: method,
          [ATTR_URL_FULL]: url,
          [ATTR_SERVER_ADDRESS]: hostname,
          [ATTR_SERVER_PORT]: Number(port) || (protocol === 'https:' ? 443 : 80),
        },
      },
      (span) => {
        // An error status names the failure; what the caller then says of it does not replace it.
        let failedStatus = false;
        return work({
          status: (code) => {
            span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, code);
            failedStatus = code >= 400;
            if (failedStatus) span.setAttribute(ATTR_ERROR_TYPE, String(code));
          },
          failure: (type) => {
            if (!failedStatus) span.setAttribute(ATTR_ERROR_TYPE, type);
          },
        });
      },
    );
  }

  /** Marks `span` failed with `error` (its exception event and an error status). */
  fail(span: Span, error: unknown): void {
    fail(span, error);
  }

  /** Sends the spans that have ended (tests; shutdown does it too). */
  forceFlush(): Promise<void> {
    return this.#provider.forceFlush();
  }

  /** Sends what is left, within a bound, and stops. */
  async shutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, shutdownTimeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([this.#provider.shutdown(), bound]);
    } finally {
      clearTimeout(timer);
      this.#contexts.disable();
    }
  }
}

/** The provider: a batch of spans sent every few seconds (OTEL_BSP_*) to the OTLP/HTTP endpoint. */
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
  const resource = defaultResource()
    .merge(
      resourceFromAttributes({
        [ATTR_SERVICE_NAME]: 'asdas-site',
        ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = new LoggedExporter(new OTLPTraceExporter(), options.onExportError);
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  return new Tracing(provider);
}
