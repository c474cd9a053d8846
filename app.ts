import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { AppPart } from './lib/app-parts.ts';
import { acceptsHtml } from './lib/accept.ts';
import { maxSegmentLength } from './lib/canonical-path.ts';
import type { Config, TrustProxy } from './lib/config.ts';
import { createLogger, OneLinePerRequest } from './lib/logger.ts';
import { compilersFactory } from './lib/schemas/compilers.ts';
import accountLinks from './plugins/app/account-links.ts';
import accountSettings from './plugins/app/account-settings.ts';
import accounts, { type AccountsPluginOptions } from './plugins/app/accounts.ts';
import backgroundJobs from './plugins/app/background-jobs.ts';
import cacheHeaders from './plugins/app/cache-headers.ts';
import canonicalPath from './plugins/app/canonical-path.ts';
import type { BuildsRoutesOptions } from './routes/builds.ts';
import { addressRefusals } from './routes/pages/refusals.ts';
import compression from './plugins/external/compression.ts';
import configPlugin from './plugins/external/config.ts';
import connectionLimit, { type ConnectionLimitOptions } from './plugins/app/connection-limit.ts';
import content, { type ContentPluginOptions } from './plugins/app/content.ts';
import database, { type DatabasePluginOptions } from './plugins/external/database.ts';
import emailVerification from './plugins/app/email-verification.ts';
import errors from './plugins/app/errors.ts';
import health from './plugins/app/health.ts';
import metrics from './plugins/external/metrics.ts';
import overload, { type OverloadPluginOptions } from './plugins/external/overload.ts';
import icons, { type IconsPluginOptions } from './plugins/app/icons.ts';
import pageCache, { type PageCacheOptions, pageCacheHits } from './plugins/app/page-cache.ts';
import mail, { type MailPluginOptions } from './plugins/app/mail.ts';
import passwordReset from './plugins/app/password-reset.ts';
import play, { type PlayPluginOptions } from './plugins/app/play.ts';
import rateLimits, { type RateLimitsPluginOptions } from './plugins/external/rate-limits.ts';
import requestId, { requestIdFrom } from './plugins/app/request-id.ts';
import requestsInFlight from './plugins/app/requests-in-flight.ts';
import securityHeaders from './plugins/external/security-headers.ts';
import ssr from './plugins/external/ssr.ts';
import { registerRoutes } from './routes/index.ts';

export type { AppPart };

/** The server passes its config; tests also leave parts out (`without`) and pass plugin options. */
export interface BuildAppOptions {
  config: Config;
  logger?: Logger;
  /** One log line a request (method, path, status, time) instead of Fastify's objects: a terminal's. */
  requestLines?: boolean;
  without?: readonly AppPart[];
  database?: DatabasePluginOptions;
  accounts?: AccountsPluginOptions;
  rateLimits?: RateLimitsPluginOptions;
  play?: PlayPluginOptions;
  mail?: MailPluginOptions;
  content?: ContentPluginOptions;
  icons?: IconsPluginOptions;
  builds?: BuildsRoutesOptions;
  overload?: OverloadPluginOptions;
  pageCache?: PageCacheOptions;
  connectionLimit?: ConnectionLimitOptions;
}

/** The largest request body: the forms' and the JSON API's, never an upload (nginx and the ingress say the same). */
export const bodyLimitBytes = 65536;

/** Assembles the service: one plugin per concern, pages last because they catch every other path. */
export async function buildApp({
  config,
  logger,
  requestLines = false,
  without = [],
  ...options
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- pino's Logger differs from FastifyBaseLogger in the app's type (tsc needs the cast)
    loggerInstance: (logger ??
      createLogger(config.logLevel, undefined, { traceIds: config.tracing !== undefined })) as FastifyBaseLogger,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    genReqId: requestIdFrom,
    ...(requestLines ? { logController: new OneLinePerRequest() } : {}),
    // No trailing-slash or duplicate-slash leniency: plugins/app/canonical-path.ts redirects such
    // spellings first, so the router only ever sees a path's one spelling.
    routerOptions: { maxParamLength: maxSegmentLength },
    // An address the router cannot decode (`%ff`), or a parameter past maxParamLength: no hook
    // or error handler sees this reply, so it gets the API's error shape and headers here.
    frameworkErrors: (error, frameworkRequest, frameworkReply) => {
      const reply = frameworkReply as FastifyReply;
      const request = frameworkRequest as FastifyRequest;
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      if (app.hasDecorator('securityHeaders')) app.securityHeaders(reply);
      const body = {
        statusCode: tooLong ? 414 : 400,
        code: tooLong ? 'PATH_TOO_LONG' : 'MALFORMED_PATH',
        message: `The address cannot be read: ${error.message}.`,
      };
      // A browser opening such an address gets the site's page; the API and everything else, JSON.
      if (
        app.hasDecorator('renderer') &&
        acceptsHtml(request.headers.accept) &&
        !/^\/(api|assets|builds)\//.test(request.url)
      ) {
        const detail = { key: addressRefusals[body.code]! };
        return void app.renderer.sendRefused(request, reply.code(body.statusCode), { ...body, fatal: false, detail });
      }
      reply.code(body.statusCode).send(body);
    },
    // Loading the pages' bundle, icons and content can take tens of seconds on a busy machine.
    pluginTimeout: 120_000,
    // Fastify's own compilers, with the code `npm run build` compiled in front (decision 0042).
    schemaController: { compilersFactory },
  });

  try {
    await assemble(app, config, without, options);
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
  return app;
}

async function assemble(
  app: FastifyInstance,
  config: Config,
  without: readonly AppPart[],
  options: Omit<BuildAppOptions, 'config' | 'logger' | 'without'>,
) {
  const included = (part: AppPart) => !without.includes(part);
  await app.register(configPlugin, { config });
  // First, and only with an OTLP endpoint (decision 0034): its span holds every other hook's work.
  if (config.tracing) await app.register((await import('./plugins/external/tracing.ts')).default);
  await app.register(metrics);
  // The first onRequest hook: a page-cache hit is answered there, with the headers stored with the
  // page, and no later onRequest or onSend hook runs for it (decision 0035).
  if (included('pages')) await app.register(pageCacheHits, options.pageCache ?? {});
  // Before any other hook or route, so close() waits for every request's handler.
  await app.register(requestsInFlight);
  await app.register(connectionLimit, options.connectionLimit ?? {});
  await app.register(requestId);
  await app.register(securityHeaders);
  // Every later hook and route sees a path's one spelling.
  await app.register(canonicalPath);
  await app.register(compression);
  await app.register(health);
  await app.register(overload, options.overload ?? {});
  await app.register(errors);
  await app.register(cookie);
  // After @fastify/cookie, whose onSend hook writes the Set-Cookie headers this one reads.
  await app.register(cacheHeaders);
  await app.register(backgroundJobs);
  await app.register(rateLimits, options.rateLimits ?? {});
  if (included('accounts')) {
    await app.register(mail, options.mail ?? {});
    await app.register(database, options.database ?? {});
    await app.register(accounts, options.accounts ?? {});
    await app.register(accountLinks);
    await app.register(passwordReset);
    await app.register(emailVerification);
    await app.register(play, options.play ?? {});
    await app.register(accountSettings);
  }
  if (included('content')) await app.register(content, options.content ?? {});
  if (included('icons')) await app.register(icons, options.icons ?? {});

  if (included('pages')) {
    await app.register(pageCache);
    await app.register(ssr);
  }
  await registerRoutes(app, included, { builds: options.builds });
}

/** A hop count means "trust the nearest N proxies", which Fastify takes as a function. */
function trustProxyOption(value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}
