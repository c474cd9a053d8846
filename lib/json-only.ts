import type { FastifyInstance } from 'fastify';

/**
 * For an API route scope: JSON bodies only (anything else is 415 UNSUPPORTED_MEDIA_TYPE), and an
 * empty body with a JSON content type counts as no body. Malformed JSON is 400 MALFORMED_JSON.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
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
}
