import fp from 'fastify-plugin';
import type { Config } from '../../lib/config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** Shares the validated configuration with every plugin as `app.config`, and says at start what looks wrong in it. */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorate('config', config);
    for (const warning of config.warnings) app.log.warn({ variable: warning.variable }, warning.message);
  },
  { name: 'config' },
);
