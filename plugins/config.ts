import fp from 'fastify-plugin';
import type { Config } from '../lib/config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** Shares the validated configuration with every plugin as `app.config`. */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'config' },
);
