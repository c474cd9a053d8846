import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config, TrustProxy } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';
import builds from './plugins/builds.ts';
import configPlugin from './plugins/config.ts';
import content from './plugins/content.ts';
import errors from './plugins/errors.ts';
import accounts from './plugins/accounts.ts';
import database from './plugins/database.ts';
import formActions from './plugins/form-actions.ts';
import health from './plugins/health.ts';
import icons from './plugins/icons.ts';
import pageData from './plugins/page-data.ts';
import play from './plugins/play.ts';
import requestId, { requestIdFrom } from './plugins/request-id.ts';
import securityHeaders from './plugins/security-headers.ts';
import ssr from './plugins/ssr.ts';
import authRoutes from './routes/api/auth.ts';

export interface BuildAppOptions {
  config: Config;
  logger?: Logger;
}

/** Assembles the service: one plugin per concern, pages last because they catch every other path. */
export async function buildApp({ config, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: (logger ?? createLogger(config.logLevel)) as FastifyBaseLogger,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    genReqId: requestIdFrom,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  await app.register(configPlugin, { config });
  await app.register(requestId);
  await app.register(securityHeaders);
  await app.register(errors);
  await app.register(cookie);
  await app.register(health);
  await app.register(pageData);
  await app.register(formActions);
  // Feature plugins register here (database, accounts, content, icons, builds ...).
  await app.register(database);
  await app.register(accounts);
  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(play);
  await app.register(content);
  await app.register(icons);
  await app.register(builds);

  await app.register(ssr);
  return app;
}

/** A hop count means "trust the nearest N proxies", which Fastify takes as a function. */
function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}
