import type { FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { wantsJson } from '../lib/accept.ts';
import { StorageState } from '../lib/db/storage-full.ts';
import { isDatabaseUnavailable } from '../lib/db/unavailable.ts';
import { schemaRefusal } from '../lib/http/validation.ts';
import { noticePages } from '../lib/notice-page.ts';
import { splitLocale } from '../contract/locales.ts';
import { HttpError, notFoundError } from '../contract/http-error.ts';

// Fastify's own input errors, named for clients that branch on `code`.
const frameworkCodes: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_CONTENT_LENGTH',
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether writes fail for lack of space (this plugin sets it, the database's readiness clears it). */
    storageState: StorageState;
  }
}

/** Long enough for an operator to free space; reads go on meanwhile. */
const storageFullRetrySeconds = 30;

/** One JSON error shape; server faults are logged and answered without details. */
export default fp(
  async (app) => {
    const unavailablePages = noticePages('unavailable');
    const storageFullPages = noticePages('storageFull');
    const storage = new StorageState();
    app.decorate('storageState', storage);
    /** A document (not a payload, not asked as JSON) gets the translated page rather than JSON. */
    const wantsDocument = (request: FastifyRequest) => {
      const path = request.url.split('?')[0] ?? '/';
      return (
        request.routeOptions.url === '/*' && !path.endsWith('/_payload.json') && !wantsJson(request.headers.accept)
      );
    };
    const localeOf = (request: FastifyRequest) => splitLocale(request.url.split('?')[0] ?? '/').locale;
    app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
      // Every schema's refusal is answered here, with the API's field codes (lib/http/validation.ts).
      const answer = error instanceof HttpError ? error : error.validation ? schemaRefusal(request, error) : null;
      if (answer) {
        if (answer.headers) reply.headers(answer.headers);
        return reply.code(answer.statusCode).send({
          statusCode: answer.statusCode,
          code: answer.code,
          message: answer.message,
          ...(answer.fields ? { fields: answer.fields } : {}),
        });
      }
      // A body the client aborted carries ECONNRESET too: a 4xx is never a database outage.
      const clientFault = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;
      // The cause once when it starts (plugins/database.ts logs when it ends), not per request.
      if (!clientFault && storage.report(error, request.log)) {
        reply.code(503).header('retry-after', String(storageFullRetrySeconds)).header('cache-control', 'no-store');
        if (wantsDocument(request)) {
          return reply.type('text/html; charset=utf-8').send(storageFullPages[localeOf(request)]);
        }
        return reply.send({
          statusCode: 503,
          code: 'STORAGE_FULL',
          message: 'The service cannot save anything right now. Try again in a few minutes.',
        });
      }
      if (!clientFault && isDatabaseUnavailable(error)) {
        request.log.error({ err: error }, 'database unavailable');
        reply.code(503).header('retry-after', '5').header('cache-control', 'no-store');
        if (wantsDocument(request))
          return reply.type('text/html; charset=utf-8').send(unavailablePages[localeOf(request)]);
        return reply.send({
          statusCode: 503,
          code: 'DATABASE_UNAVAILABLE',
          message: 'The service cannot reach its database. Try again in a few seconds.',
        });
      }
      const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (statusCode >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(statusCode).send({ statusCode, code: 'INTERNAL', message: 'Internal Server Error' });
      }
      return reply.code(statusCode).send({
        statusCode,
        code: frameworkCodes[error.code] ?? error.code ?? 'BAD_REQUEST',
        message: error.message,
      });
    });

    // Whatever no route takes (without the pages: anything; with them: other methods) is a JSON 404.
    app.setNotFoundHandler(async (request) => {
      throw notFoundError(request.url.split('?')[0] ?? request.url);
    });
  },
  { name: 'errors' },
);
