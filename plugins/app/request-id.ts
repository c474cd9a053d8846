import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

// An incoming id is kept only when it is short and plain, so it cannot forge log lines.
const acceptableId = /^[\w.:-]{1,128}$/;

/** Fastify's `genReqId`: honour a sane incoming `X-Request-Id`, otherwise make one. */
export function requestIdFrom(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && acceptableId.test(incoming) ? incoming : randomUUID();
}

/** Echoes the request id so a client or proxy can quote it when reporting a problem. */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });
  },
  { name: 'request-id' },
);
