import fp from 'fastify-plugin';
import { checkPath } from '../lib/canonical-path.ts';
import { HttpError } from '../contract/http-error.ts';

/**
 * Every request reaches the routes at the normal spelling of its path (lib/canonical-path.ts), so
 * the path the router matched, `request.url` and every decision taken on either are one path.
 * Another spelling of a path is redirected there (GET, HEAD) or refused (anything else: a form or
 * an API call is never sent twice); a target that is not a readable path is refused.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      const verdict = checkPath(request.url);
      if (verdict.kind === 'normal') return done();
      if (verdict.kind === 'malformed') {
        return done(new HttpError(400, 'MALFORMED_PATH', `The address cannot be read: ${verdict.reason}.`));
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return done(
          new HttpError(
            400,
            'NON_CANONICAL_PATH',
            `This address is spelled differently here: send the request to ${verdict.path}.`,
          ),
        );
      }
      const queryStart = request.url.indexOf('?');
      reply.redirect(queryStart === -1 ? verdict.path : verdict.path + request.url.slice(queryStart), 301);
    });
  },
  { name: 'canonical-path' },
);
