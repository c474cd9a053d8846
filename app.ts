import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config, TrustProxy } from './lib/config.ts';
import { createLogger } from './lib/logger.ts';
import accountForms from './plugins/account-forms.ts';
import accountLinks from './plugins/account-links.ts';
import accountSettings from './plugins/account-settings.ts';
import accounts, { type AccountsPluginOptions } from './plugins/accounts.ts';
import backgroundJobs from './plugins/background-jobs.ts';
import builds from './plugins/builds.ts';
import configPlugin from './plugins/config.ts';
import content from './plugins/content.ts';
import database, { type DatabasePluginOptions } from './plugins/database.ts';
import emailVerification from './plugins/email-verification.ts';
import errors from './plugins/errors.ts';
import formActions from './plugins/form-actions.ts';
import health from './plugins/health.ts';
import metrics from './plugins/metrics.ts';
import overload from './plugins/overload.ts';
import icons from './plugins/icons.ts';
import mail, { type MailPluginOptions } from './plugins/mail.ts';
import pageData from './plugins/page-data.ts';
import passwordReset from './plugins/password-reset.ts';
import play, { type PlayPluginOptions } from './plugins/play.ts';
import requestId, { requestIdFrom } from './plugins/request-id.ts';
import securityHeaders from './plugins/security-headers.ts';
import ssr from './plugins/ssr.ts';
import authRoutes from './routes/api/auth.ts';

export interface BuildAppOptions {
  config: Config;
  logger?: Logger;
  /** Tests hand in an already migrated database. */
  database?: DatabasePluginOptions;
  /** Tests lower the password hashing cost or the rate limits. */
  accounts?: AccountsPluginOptions;
  /** Tests move Play's clock or change its limits. */
  play?: PlayPluginOptions;
  /** Tests shorten the waits between email send attempts. */
  mail?: MailPluginOptions;
}

/** Assembles the service: one plugin per concern, pages last because they catch every other path. */
export async function buildApp({ config, logger, ...options }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: (logger ?? createLogger(config.logLevel)) as FastifyBaseLogger,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    // A client that trickles its headers (or body) is cut off instead of holding a connection.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
    genReqId: requestIdFrom,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  await app.register(configPlugin, { config });
  await app.register(metrics);
  await app.register(requestId);
  await app.register(securityHeaders);
  await app.register(overload);
  await app.register(errors);
  await app.register(cookie);
  await app.register(health);
  await app.register(pageData);
  await app.register(formActions);
  await app.register(backgroundJobs);
  await app.register(mail, options.mail ?? {});
  await app.register(database, options.database ?? {});
  await app.register(accounts, {
    ...options.accounts,
    rateLimits: {
      loginPerIp: { max: config.loginRateLimitPerMinute, windowMs: 60_000 },
      registerPerIp: { max: config.registerRateLimitPerMinute, windowMs: 60_000 },
      ...options.accounts?.rateLimits,
    },
  });
  await app.register(authRoutes, { prefix: '/api/auth' });
  await app.register(accountForms);
  await app.register(accountLinks);
  await app.register(passwordReset);
  await app.register(emailVerification);
  await app.register(play, options.play ?? {});
  await app.register(accountSettings);
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
