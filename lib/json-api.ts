import { Ajv } from 'ajv';
import type { FastifyInstance } from 'fastify';

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
