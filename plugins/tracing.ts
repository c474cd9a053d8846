import type { IncomingMessage } from 'node:http';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readBuildInfo } from '../lib/build-info.ts';
import { useTraceIds } from '../lib/logger.ts';
import { pageOf } from '../lib/pages/page-request.ts';
import { type RequestTrace, startTracing, type Tracing } from '../lib/tracing.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Only while tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): check with `app.hasDecorator('tracing')`. */
    tracing: Tracing;
  }
}

/** The request id (plugins/request-id.ts), as the span's attribute. */
const requestIdAttribute = 'asdas.request_id';

interface Traced extends RequestTrace {
  /** Kept to record on the span if the answer turns out a 5xx. */
  error?: Error;
}

/** `GET /th/asdas/:slug`: the matched route, never the raw path; a payload by its own pattern. */
function routeOf(request: FastifyRequest): string | undefined {
  return pageOf(request)?.pattern ?? request.routeOptions.url;
}

/**
 * A span per request, continuing the proxy's W3C trace context, active for everything the
 * request does; log lines carry its ids (decision 0034). Registered only when tracing is on.
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
    const requests = new WeakMap<IncomingMessage, Traced>();
    const requestLoggers = new WeakMap<object, RequestTrace>();

    // The request's span starts with its logger, so every line of `request.log` from "incoming
    // request" on carries the ids, hooks or not; other loggers carry the active span's.
    app.setChildLoggerFactory(function (logger, bindings, options, raw) {
      const child = logger.child(bindings, options);
      const traced: Traced = tracing.startRequest(raw.method ?? 'GET', raw.headers);
      requests.set(raw, traced);
      requestLoggers.set(child, traced);
      return child;
    });
    const undoLogIds = useTraceIds((logger) => tracing.idsOf(requestLoggers.get(logger)?.span));

    // The rest of the request runs in its span's context: the hooks and the handler from here, and
    // again after the body has arrived (its events come from the socket, outside any request).
    app.addHook('onRequest', (request, _reply, done) => {
      const traced = requests.get(request.raw);
      if (!traced) return done();
      traced.span.setAttribute(requestIdAttribute, request.id);
      tracing.within(traced.context, done);
    });
    app.addHook('preValidation', (request, _reply, done) => {
      const traced = requests.get(request.raw);
      if (traced) tracing.within(traced.context, done);
      else done();
    });

    app.addHook('onError', (request, _reply, error, done) => {
      const traced = requests.get(request.raw);
      if (traced) traced.error = error;
      done();
    });

    function finish(request: FastifyRequest, statusCode: number | undefined) {
      const traced = requests.get(request.raw);
      if (!traced) return;
      requests.delete(request.raw);
      const { span } = traced;
      const path = request.url.split('?', 1)[0] ?? '/';
      const route = routeOf(request);
      span.updateName(route ? `${request.method} ${route}` : request.method);
      span.setAttributes({ [ATTR_URL_PATH]: path, [ATTR_URL_SCHEME]: request.protocol });
      if (route) span.setAttribute(ATTR_HTTP_ROUTE, route);
      if (statusCode === undefined) {
        // The client went away before the answer.
        span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client closed the connection' });
      } else {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
        // A 4xx is the client's doing: only a server fault marks a server span failed.
        if (statusCode >= 500) {
          if (traced.error) span.recordException(traced.error);
          span.setAttribute(ATTR_ERROR_TYPE, traced.error?.name ?? String(statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR, ...(traced.error ? { message: traced.error.message } : {}) });
        }
      }
      span.end();
    }
    app.addHook('onResponse', (request, reply, done) => {
      finish(request, reply.statusCode);
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      finish(request, undefined);
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
