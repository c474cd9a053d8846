import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../contract/http-error.ts';

// Fastify's shared Ajv strips unknown properties and coerces "true" into true; the API must
// refuse both, so its routes validate with this strict instance instead.
const strictAjv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: true,
  allowUnionTypes: true,
});

/**
 * Sets up a JSON API route scope (/api/auth, /api/play, /api/account): bodies validated strictly
 * (extra fields and wrong types are 400), JSON bodies only (anything else is 415
 * UNSUPPORTED_MEDIA_TYPE; malformed JSON is 400 MALFORMED_JSON; an empty body with a JSON content
 * type counts as no body), and answers never cached.
 */
export function jsonApiScope(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => strictAjv.compile(schema));

  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const refused = refusedCharset(request.headers['content-type']);
    if (refused) {
      done(refused, undefined);
      return;
    }
    const json = typeof body === 'string' ? body : body.toString('utf8');
    if (json.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, json, done);
  });

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
}

/**
 * Bodies are read as UTF-8 (JSON is UTF-8 by RFC 8259; forms are posted in the page's UTF-8): a
 * body declared in another charset would be misread, so it is refused (415) rather than guessed.
 * Null when the Content-Type names no charset or UTF-8.
 */
export function refusedCharset(contentType: string | undefined): HttpError | null {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return null;
  return new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported charset "${charset.slice(0, 40)}": send UTF-8.`);
}
