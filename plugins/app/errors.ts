import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { wantsJson } from '../../lib/accept.ts';
import { StorageState } from '../../lib/db/storage-full.ts';
import { isDatabaseUnavailable } from '../../lib/db/unavailable.ts';
import { schemaRefusal } from '../../lib/http/validation.ts';
import { type Notice, noticePages } from '../../lib/notice-page.ts';
import { pageOf } from '../../lib/pages/page-request.ts';
import { HttpError, notFoundError } from '../../contract/http-error.ts';

// Fastify's own input errors, named for clients that branch on `code`, in our words, not the library's.
const frameworkErrors: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'BODY_TOO_LARGE', message: 'The body is larger than this address accepts.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'This address does not accept a body of that Content-Type.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'MALFORMED_JSON', message: 'The body is empty: send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'The body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_CONTENT_LENGTH',
    message: 'The Content-Length header does not match the body.',
  },
};
const otherClientError = { code: 'BAD_REQUEST', message: 'The request cannot be read.' };

declare module 'fastify' {
  interface FastifyInstance {
    storageState: StorageState;
  }
}

/** The database's state answered 503: a page in each language for a document, JSON otherwise. */
interface DatabaseFault {
  notice: Extract<Notice, 'unavailable' | 'storageFull'>;
  retryAfterSeconds: number;
  code: string;
  message: string;
}
const unavailable: DatabaseFault = {
  notice: 'unavailable',
  retryAfterSeconds: 5,
  code: 'DATABASE_UNAVAILABLE',
  message: 'The service cannot reach its database. Try again in a few seconds.',
};
// Long enough for an operator to free space; reads go on meanwhile.
const storageFull: DatabaseFault = {
  notice: 'storageFull',
  retryAfterSeconds: 30,
  code: 'STORAGE_FULL',
  message: 'The service cannot save anything right now. Try again in a few minutes.',
};

/** One JSON error shape; server faults are logged and answered without details. */
export default fp(
  async (app) => {
    const pages = { unavailable: noticePages('unavailable'), storageFull: noticePages('storageFull') };
    const storage = new StorageState();
    app.decorate('storageState', storage);
    function sendFault(request: FastifyRequest, reply: FastifyReply, fault: DatabaseFault) {
      reply.code(503).header('retry-after', String(fault.retryAfterSeconds)).header('cache-control', 'no-store');
      // A page's document (not its payload, not asked as JSON) gets the translated page.
      const page = pageOf(request);
      if (page?.answer === 'document' && !wantsJson(request.headers.accept)) {
        return reply.type('text/html; charset=utf-8').send(pages[fault.notice][page.locale]);
      }
      return reply.send({ statusCode: 503, code: fault.code, message: fault.message });
    }
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
      // The cause once when it starts (plugins/external/database.ts logs when it ends), not per request.
      if (!clientFault && storage.report(error, request.log)) return sendFault(request, reply, storageFull);
      if (!clientFault && isDatabaseUnavailable(error)) {
        request.log.error({ err: error }, 'database unavailable');
        return sendFault(request, reply, unavailable);
      }
      const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
      if (statusCode >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.code(statusCode).send({ statusCode, code: 'INTERNAL', message: 'Internal Server Error' });
      }
      const { code, message } = frameworkErrors[error.code] ?? otherClientError;
      return reply.code(statusCode).send({ statusCode, code, message });
    });

    // Whatever no route takes (without the pages: anything; with them: other methods) is a JSON 404.
    app.setNotFoundHandler(async (request) => {
      throw notFoundError(request.url.split('?')[0] ?? request.url);
    });
  },
  { name: 'errors' },
);
