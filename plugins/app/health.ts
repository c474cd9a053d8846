import fp from 'fastify-plugin';

export type ReadinessCheck = () => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Checks `/readyz` runs; a plugin adds its own. */
    readinessChecks: Map<string, ReadinessCheck>;
    /** Set when shutdown begins (the drain): /readyz answers 503 so load balancers stop sending traffic. */
    shuttingDown: boolean;
  }
}

export default fp(
  async (app) => {
    app.decorate('readinessChecks', new Map<string, ReadinessCheck>());
    app.decorate('shuttingDown', false);

    // While draining, every answer closes its connection, so keep-alive clients reconnect elsewhere.
    app.addHook('onSend', async (_request, reply) => {
      if (app.shuttingDown) reply.header('connection', 'close');
    });
  },
  { name: 'health' },
);
