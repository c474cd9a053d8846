import type { Duplex } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { checkPath, maxSegmentLength } from '../../lib/canonical-path.ts';
import { HttpError } from '../../contract/http-error.ts';

const tooLong = () =>
  new HttpError(414, 'PATH_TOO_LONG', `The address cannot be read: a segment over ${maxSegmentLength} characters.`);

/**
 * One spelling per path, before any other hook (decision 0026): another spelling is redirected
 * (GET, HEAD) or refused, so a form or an API call is never sent twice.
 */
export default fp(
  async (app) => {
    // Node's parser refuses a raw control or non-ASCII byte in the target before any hook runs:
    // answered here as the escaped byte is, before Fastify's bare 400 (which then finds the socket gone).
    let refusal = '';
    app.addHook('onReady', () => {
      const body = JSON.stringify({
        statusCode: 400,
        code: 'MALFORMED_PATH',
        message: 'The address cannot be read: a byte a path may not hold.',
      });
      const headers = app.hasDecorator('securityHeadersOf')
        ? app.securityHeadersOf({ raw: {} } as FastifyRequest).map(([name, value]) => `${name}: ${value}\r\n`)
        : [];
      refusal =
        'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
        `${headers.join('')}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    });
    app.server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
      if (error.code !== 'HPE_INVALID_URL' || !socket.writable || !refusal) return;
      socket.write(refusal);
      socket.destroy();
    });
    app.addHook('onRequest', (request, reply, done) => {
      const verdict = checkPath(request.url);
      if (verdict.kind === 'normal') return done();
      if (verdict.kind === 'malformed') {
        return done(new HttpError(400, 'MALFORMED_PATH', `The address cannot be read: ${verdict.reason}.`));
      }
      if (verdict.kind === 'too-long') return done(tooLong());
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
