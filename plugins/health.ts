import fp from 'fastify-plugin';

export type ReadinessCheck = () => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Checks `/readyz` runs (a database ping, say); a plugin adds its own. */
    readinessChecks: Map<string, ReadinessCheck>;
    /** Set when shutdown begins (the drain): /readyz answers 503 so load balancers stop sending traffic. */
    shuttingDown: boolean;
  }
}

const statusSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    checks: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['status'],
} as const;

/** `/healthz`: the process answers. `/readyz`: it can serve traffic now. */
export default fp(
  async (app) => {
    app.decorate('readinessChecks', new Map<string, ReadinessCheck>());
    app.decorate('shuttingDown', false);

    // While draining, every answer closes its connection: a client or proxy holding a keep-alive
    // connection to this process opens its next one elsewhere instead of finding it closed later.
    app.addHook('onSend', async (_request, reply) => {
      if (app.shuttingDown) reply.header('connection', 'close');
    });

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
  },
  { name: 'health' },
);
