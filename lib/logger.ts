import pino, { type Logger, type LoggerOptions } from 'pino';

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

function redactUrl(url: string): string {
  return url.includes('=') ? url.replace(secretQueryParameter, '$1[redacted]') : url;
}

const loggedHeaders = ['host', 'user-agent', 'authorization', 'cookie'] as const;

function loggerOptions(level: string): LoggerOptions {
  return {
    level,
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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return destination ? pino(loggerOptions(level), destination) : pino(loggerOptions(level));
}
