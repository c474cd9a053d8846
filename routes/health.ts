import type { FastifyInstance } from 'fastify';

const statusSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status'],
} as const;

/** `/healthz`: the process answers. `/readyz`: it can serve traffic now (503 while draining or when a check fails). */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { response: { 200: statusSchema } }, logLevel: 'warn' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get(
    '/readyz',
    { schema: { response: { 200: statusSchema, 503: statusSchema } }, logLevel: 'warn' },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.shuttingDown) return reply.code(503).send({ status: 'shutting-down' });
      const checks: Record<string, string> = {};
      let ready = true;
      for (const [name, check] of app.readinessChecks) {
        try {
          await check();
          checks[name] = 'ok';
        } catch (error) {
          ready = false;
          checks[name] = 'failing';
          request.log.warn({ err: error, check: name }, 'readiness check failed');
        }
      }
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
    },
  );
}
