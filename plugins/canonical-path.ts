import fp from 'fastify-plugin';
import { checkPath } from '../lib/canonical-path.ts';
import { HttpError } from '../contract/http-error.ts';

/**
 * One spelling per path, before any other hook (decision 0026): another spelling is redirected
 * (GET, HEAD) or refused, so a form or an API call is never sent twice.
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
