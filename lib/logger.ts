import { createRequire } from 'node:module';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type PinoPretty from 'pino-pretty';

/** Header values that must never reach a log line. */
const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
];

// Secrets that travel in a query string: emailed links' and Play's tokens.
const secretQueryParameter = /([?&](?:token|launch)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.includes('=') ? url.replace(secretQueryParameter, '$1[redacted]') : url;
}

const loggedHeaders = ['host', 'user-agent', 'authorization', 'cookie'] as const;

export interface TraceIds {
  trace_id: string;
  span_id: string;
}

/** The ids of the trace a log line belongs to, from plugins/external/tracing.ts while it runs (a fresh object each call). */
export type TraceIdSource = (logger: Logger) => TraceIds | undefined;

let traceIdSource: TraceIdSource | undefined;

/** Gives loggers made with `traceIds` their line's trace and span ids; returns what undoes it. */
export function useTraceIds(source: TraceIdSource): () => void {
  traceIdSource = source;
  return () => {
    if (traceIdSource === source) traceIdSource = undefined;
  };
}

// pino merges the line's own fields into what this returns, so it is a new object each time.
function traceIdsMixin(_line: object, _level: number, logger: Logger): object {
  return traceIdSource?.(logger) ?? {};
}

export interface LoggerSettings {
  /** Tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): lines carry `trace_id` and `span_id`. Off, no per-line cost. */
  traceIds?: boolean;
}

function loggerOptions(level: string, { traceIds = false }: LoggerSettings): LoggerOptions {
  return {
    level,
    ...(traceIds ? { mixin: traceIdsMixin } : {}),
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: {
      // Only the headers a request has: redaction then marks the credentials it carried, and a
      // request without them logs no `[redacted]` placeholder.
      req(req: { method: string; url: string; headers: Record<string, unknown>; ip?: string; id?: string }) {
        const headers: Record<string, unknown> = {};
        for (const name of loggedHeaders) if (req.headers[name] !== undefined) headers[name] = req.headers[name];
        return { method: req.method, url: redactUrl(req.url), ip: req.ip, headers };
      },
    },
  };
}

export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  settings: LoggerSettings = {},
): Logger {
  const options = loggerOptions(level, settings);
  if (destination) return pino(options, destination);
  return process.stdout.isTTY ? pino(options, readableLines(requestLines(level))) : pino(options);
}

/** On a terminal, below debug: one line a request (app.ts), not Fastify's two objects. */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const failed = reply.statusCode >= 500 ? ` (request ${request.id})` : '';
    const time = reply.elapsedTime.toFixed(1);
    request.log.info(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${time} ms${failed}`);
  }
}

export function requestLines(level: string): boolean {
  return process.stdout.isTTY === true && level !== 'debug' && level !== 'trace';
}

/**
 * On a terminal (`npm start`, `npm run dev`) lines a person reads; anywhere else (containers, log
 * collectors, tests) JSON. Written in this thread, so nothing is lost when the process exits.
 */
function readableLines(oneLineRequests: boolean): pino.DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const ignore = oneLineRequests ? 'pid,hostname,reqId' : 'pid,hostname';
  return pretty({ sync: true, translateTime: 'HH:MM:ss', ignore });
}
