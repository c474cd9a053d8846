import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, SpanStatusCode } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_ROUTE, ATTR_URL_PATH, ATTR_URL_SCHEME } from '@opentelemetry/semantic-conventions';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readBuildInfo } from '../../lib/build-info.ts';
import { type TraceIds, useTraceIds } from '../../lib/logger.ts';
import { pageOf } from '../../lib/pages/page-request.ts';
import { startTracing, type Tracing } from '../../lib/tracing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Only while tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): check with `app.hasDecorator('tracing')`. */
    tracing: Tracing;
  }
}

/** `GET /th/asdas/:slug`: the matched route, never the raw path; a payload by its own pattern. */
function routeOf(request: FastifyRequest): string | undefined {
  return pageOf(request)?.pattern ?? request.routeOptions.url;
}

/**
 * A span per request (@fastify/otel), continuing the proxy's W3C trace context, active for
 * everything the request does; log lines carry its ids (decision 0051). Registered only when on.
 */
export default fp(
  async (app) => {
    const { config } = app;
    let serviceVersion: string | undefined;
    try {
      serviceVersion = readBuildInfo(config.dev).id;
    } catch {
      // No build (tests of the API alone): the spans say no version.
    }
    const tracing = await startTracing({
      protocol: config.tracing?.protocol ?? 'http/protobuf',
      serviceVersion,
      onExportError: (error) =>
        app.log.warn({ err: error }, 'spans could not be sent to the OpenTelemetry collector; they are dropped'),
    });

    // Fastify logs "incoming request" before any hook: the request's ids are drawn with its logger,
    // and the span @fastify/otel starts in the next onRequest hook takes them.
    const reserved = new WeakMap<object, TraceIds>();
    app.setChildLoggerFactory(function (logger, bindings, options, raw) {
      const child = logger.child(bindings, options);
      const ids = tracing.reserveIds(raw.headers);
      reserved.set(raw, ids).set(child, ids);
      return child;
    });
    const undoLogIds = useTraceIds((logger) => reserved.get(logger) ?? tracing.activeIds());
    app.addHook('onRequest', (request, _reply, done) => {
      const ids = reserved.get(request.raw);
      if (ids) tracing.startingWith(ids, done);
      else done();
    });

    const otel = new FastifyOtelInstrumentation({
      // Renders, queries, emails are the request's own children, not a hook's or the handler's.
      instrumentHooks: false,
      instrumentHandler: false,
      recordExceptions: false,
      requestHook(span, request) {
        const route = routeOf(request);
        span.updateName(route ? `${request.method} ${route}` : request.method);
        span.setAttributes({
          [ATTR_URL_PATH]: request.url.split('?', 1)[0],
          [ATTR_URL_SCHEME]: request.protocol,
          'asdas.request_id': request.id,
          ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
        });
      },
    });
    await app.register(otel.plugin());

    // A body's events come from the socket, outside any request: the rest runs in its span again.
    app.addHook('preValidation', (request, _reply, done) => {
      const active = request.opentelemetry().context;
      if (active) context.with(active, done);
      else done();
    });
    // Only a server fault's exception is recorded: the error handler decides the status after onError.
    const errors = new WeakMap<FastifyRequest, Error>();
    app.addHook('onError', (request, _reply, error, done) => {
      errors.set(request, error);
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const error = errors.get(request);
      const { span } = request.opentelemetry();
      if (error && span && reply.statusCode >= 500) {
        span.recordException(error);
        span.setAttribute(ATTR_ERROR_TYPE, error.name);
      }
      done(null, payload);
    });
    app.addHook('onRequestAbort', (request, done) => {
      const { span } = request.opentelemetry();
      span?.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      span?.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection' });
      span?.end();
      done();
    });

    app.decorate('tracing', tracing);
    // Registered first, so closed last: the spans of everything else's shutdown are sent too.
    app.addHook('onClose', async () => {
      undoLogIds();
      await tracing.shutdown();
    });
    app.log.info({ protocol: config.tracing?.protocol }, 'tracing: spans are sent to the OTLP endpoint');
  },
  { name: 'tracing', dependencies: ['config'] },
);
