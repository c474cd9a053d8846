import { resolve } from 'node:path';
import FastifyVite from '@fastify/vite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import type { DocumentOutcome, PayloadOutcome, Renderer, RendererSite, ServerRequestContext } from '../client/entry-server.tsx';
import { appIcons } from '../contract/app-icons.ts';
import { cookieNames } from '../contract/cookies.ts';
import { isFlashCode } from '../contract/flash.ts';
import { encodeRedirectLocation } from '../contract/navigation-guard.ts';
import { preferredLocale, wantsJson } from '../lib/accept.ts';
import { projectRoot, readBuildInfo } from '../lib/build-info.ts';
import { matchesIfNoneMatch, strongEtag } from '../lib/etag.ts';
import { loadClientAssets, noClientAssets } from '../lib/client-assets.ts';
import { compileHtmlTemplate } from '../lib/html-template.ts';
import benchRoutes from '../routes/bench.ts';
import { refusedCharset } from '../lib/json-api.ts';
import type { Locale } from '../contract/locales.ts';
import type { PublicUser } from '../contract/page-data.ts';
import { pageFontPreloads } from '../lib/page-fonts.ts';

/** What the SSR bundle (client/entry-server.tsx) exposes to the server. */
interface RendererModule {
  createRenderer(site: RendererSite): Renderer;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, set by the accounts plugin (null when nobody is logged in). */
    user: PublicUser | null;
  }
}

const payloadSuffix = '/_payload.json';
const immutableAsset = 'public, max-age=31536000, immutable';

/**
 * Pages: every GET that no other route claims is rendered by React on the server (or answered
 * as the page's `_payload.json`). Dev mode runs Vite's dev server with HMR; production serves
 * the build in dist/ and never imports Vite.
 */
export default async function ssr(app: FastifyInstance) {
  const { config } = app;
  const build = readBuildInfo(config.dev);
  const assets = config.dev ? noClientAssets : loadClientAssets(resolve(projectRoot, 'dist/client'));

  await app.register(FastifyVite, {
    root: projectRoot,
    dev: config.dev,
    // The renderer is the SSR bundle itself; @fastify/vite swaps it on every request in dev.
    createRenderFunction: async (client) =>
      async function render() {
        return { renderer: client as unknown as RendererModule };
      },
    createHtmlFunction: async (source) => {
      const template = compileHtmlTemplate(source);
      return function html(this: FastifyReply, values?: Record<string, unknown>) {
        return this.type('text/html; charset=utf-8').send(template((values ?? {}) as Record<string, string>));
      };
    },
    fastifyStaticOptions: {
      cacheControl: false,
      // The build writes `.br`/`.gz` next to each hashed asset (scripts/build.mjs): sent as they are.
      preCompressed: true,
      // Vite fingerprints everything under /assets/; other public files may change between builds.
      setHeaders(reply, path) {
        reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? immutableAsset : 'public, max-age=3600');
      },
    },
  });
  await app.vite.ready();

  // The icons the pages render, resolved once from the installed sets (contract/app-icons.ts).
  const icons = await app.icons.load(appIcons);
  const unresolved = appIcons.filter((name) => !icons[name]);
  if (unresolved.length > 0) app.log.warn({ icons: unresolved }, 'icons listed in contract/app-icons.ts are not in the installed sets');

  // Everything the renderer needs that no request changes: handed over once per loaded bundle.
  const site: RendererSite = {
    dev: config.dev,
    buildId: build.id,
    buildCheckIntervalMs: config.buildCheckIntervalMs,
    allowedExternalOrigins: config.allowedExternalOrigins,
    publicUrl: config.publicUrl,
    fontPreloads: pageFontPreloads(config.dev),
    icons,
    iconFallbackUrl: config.iconUpstreamUrl,
    dataSource: (name) => app.pageData.get(name),
  };

  function contextFor(request: FastifyRequest, reply: FastifyReply, isBot = isbot(request.headers['user-agent'] ?? '')): ServerRequestContext {
    return {
      user: request.user ?? null,
      sessionId: request.sessionId ?? null,
      isBot,
      runFormAction: async (name, args) => {
        const action = app.formActions.get(name);
        if (!action) throw new Error(`No form action named '${name}'.`);
        return action(args, request, reply);
      },
      logError: (error, message) => request.log.error({ err: error }, message),
    };
  }

  // One renderer per loaded SSR bundle: production loads it once; development reloads it on change.
  const renderers = new WeakMap<RendererModule, Renderer>();
  async function rendererFor(reply: FastifyReply): Promise<Renderer> {
    const { renderer: module } = (await reply.render()) as { renderer: RendererModule };
    let renderer = renderers.get(module);
    if (!renderer) {
      renderer = module.createRenderer(site);
      renderers.set(module, renderer);
    }
    return renderer;
  }

  // SSR time and a route label for the request metrics (the router only knows `/*`).
  const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
  async function timed<T extends DocumentOutcome | PayloadOutcome>(request: FastifyRequest, kind: 'document' | 'payload', render: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const outcome = await render();
    if (metrics) {
      const module = 'pageModule' in outcome ? outcome.pageModule : undefined;
      const page = module ? module.replace(/^pages\//, '').replace(/\.tsx?$/, '') : outcome.status >= 400 ? String(outcome.status) : 'other';
      metrics.ssrRender.observe({ kind, page }, (performance.now() - started) / 1000);
      metrics.labelRoute(request, kind === 'payload' ? '/*/_payload.json' : `page:${page}`);
    }
    return outcome;
  }

  app.get('/*', async (request, reply) => {
    const [pathname = '/', search = ''] = request.url.split(/\?(.*)/s);
    const context = contextFor(request, reply);

    if (pathname === payloadSuffix || pathname.endsWith(payloadSuffix)) {
      const pagePath = pathname.slice(0, -payloadSuffix.length) || '/';
      const renderer = await rendererFor(reply);
      return sendPayload(request, reply, await timed(request, 'payload', () => renderer.loadPayload(pagePath, context)));
    }

    if (pathname === '/' && shouldOfferThai(request, context.isBot)) {
      return reply.header('vary', 'Accept-Language, Cookie').redirect(search ? `/th?${search}` : '/th', 302);
    }

    // A one-shot notice after a form posted without JavaScript ("You are signed in"): read once.
    const flash = request.cookies[cookieNames.flash];
    if (flash !== undefined) {
      reply.clearCookie(cookieNames.flash, { path: '/' });
      if (isFlashCode(flash)) context.flash = flash;
    }
    const renderer = await rendererFor(reply);
    return sendDocument(request, reply, await timed(request, 'document', () => renderer.renderDocument(request.url, context)));
  });

  if (config.benchBaseline) {
    await app.register(benchRoutes);
  }

  // Forms posted without JavaScript (login, registration, logout). Only this scope parses
  // urlencoded bodies: the JSON API keeps answering 415 to them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const refused = refusedCharset(request.headers['content-type']);
    if (refused) done(refused, undefined);
    else done(null, body);
  });
  app.post('/*', async (request, reply) => {
    if (!isSameOrigin(request, config.publicUrl, config.trustProxy !== false)) {
      return reply.code(403).send({
        statusCode: 403,
        code: 'CROSS_ORIGIN_FORM',
        message: 'Forms may only be posted from this site.',
      });
    }
    const form = typeof request.body === 'string' ? request.body : '';
    const context = contextFor(request, reply);
    const renderer = await rendererFor(reply);
    return sendDocument(request, reply, await timed(request, 'document', () => renderer.renderDocument(request.url, context, { form })));
  });

  const allowedOrigins = new Set([...config.allowedExternalOrigins, ...(config.playUrl ? [config.playUrl] : [])].map((url) => originOf(url)));
  function isAllowedExternal(location: string): boolean {
    const origin = originOf(location);
    return origin !== undefined && origin !== 'null' && allowedOrigins.has(origin);
  }

  function sendDocument(request: FastifyRequest, reply: FastifyReply, outcome: DocumentOutcome) {
    // Same guard as navigateTo: the Location stays on this site (no `//evil`, `/\evil`) and is encoded.
    // A form action may leave the site only for an origin the configuration allows (Play's PLAY_URL).
    if (outcome.type === 'redirect') {
      const location = outcome.external && isAllowedExternal(outcome.location) ? outcome.location : encodeRedirectLocation(outcome.location);
      return reply.redirect(location, outcome.status);
    }
    const pathname = request.url.split('?')[0];
    reply.code(outcome.status);
    reply.header('cache-control', request.user ? 'private, no-cache' : 'no-cache');
    if (pathname === '/') reply.header('vary', 'Accept-Language, Cookie');
    if (outcome.error && wantsJson(request.headers.accept)) {
      return reply.send({ statusCode: outcome.error.statusCode, message: outcome.error.message });
    }
    return reply.html({
      lang: outcome.locale,
      buildId: build.id,
      head: outcome.head + assets.preloadTags(outcome.locale, outcome.pageModule),
      element: outcome.body,
      scripts: outcome.scripts,
    });
  }
}

/**
 * Cross-site request forgery guard for form posts: the browser's Origin (or, failing that,
 * Referer) must be this site: PUBLIC_URL, or the host the request was addressed to, with its port
 * (behind a proxy on :8443 the browser says `https://site:8443`). SameSite=Lax cookies already stop
 * most forged posts; this stops the rest.
 */
function isSameOrigin(request: FastifyRequest, publicUrl: string, behindProxy: boolean): boolean {
  const claimed = normalOrigin(request.headers.origin ?? originOf(request.headers.referer));
  if (!claimed) return false;
  return claimed === normalOrigin(publicUrl) || addressedOrigins(request, behindProxy).includes(claimed);
}

/**
 * `request.host` is the Host header, or X-Forwarded-Host from a trusted proxy, port included.
 * A proxy that forwards the host without its port (nginx's `$host`) can name it in
 * X-Forwarded-Port. A forged forwarded header cannot help a forgery: a page on another site
 * cannot add headers to a form post, only a client posting on its own behalf can.
 */
function addressedOrigins(request: FastifyRequest, behindProxy: boolean): string[] {
  const origins = [normalOrigin(`${request.protocol}://${request.host}`)];
  const forwardedPort = behindProxy ? lastHeaderEntry(request.headers['x-forwarded-port']) : undefined;
  if (forwardedPort && /^\d{1,5}$/.test(forwardedPort) && request.port === null) {
    origins.push(normalOrigin(`${request.protocol}://${request.hostname}:${forwardedPort}`));
  }
  return origins.filter((origin): origin is string => origin !== undefined);
}

/** `https://site:443` and `https://site` are one origin; browsers send the latter. */
function normalOrigin(value: string | undefined): string | undefined {
  if (!value || value === 'null') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

function lastHeaderEntry(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined?.split(',').at(-1)?.trim() || undefined;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** First visit to `/` from a browser preferring Thai, with no language chosen yet. */
function shouldOfferThai(request: FastifyRequest, isBot: boolean): boolean {
  if (isBot || request.cookies[cookieNames.language] !== undefined) return false;
  return preferredLocale(request.headers['accept-language']) === ('th' satisfies Locale);
}

/** Serialised payload bodies by the page data they carry: content data is shared and frozen, so
 * the JSON and its ETag are computed once per content version, not per request. */
const serialisedPayloads = new WeakMap<object, { buildId: string; json: string; etag: string }>();

function serialisePayload(payload: PayloadOutcome): { json: string; etag: string } {
  const { body } = payload;
  const data = 'data' in body ? body.data : undefined;
  const cacheable = payload.status === 200 && 'buildId' in body && typeof data === 'object' && data !== null;
  if (cacheable) {
    const cached = serialisedPayloads.get(data);
    if (cached && cached.buildId === body.buildId) return cached;
  }
  const json = JSON.stringify(body);
  const serialised = { json, etag: strongEtag(json) };
  if (cacheable) serialisedPayloads.set(data, { buildId: body.buildId, ...serialised });
  return serialised;
}

/**
 * `{path}/_payload.json`: the page's data with a strong ETag (a hash of the body, so it changes
 * when content reloads) and 304 when the browser already has it. Revalidated on every use.
 */
function sendPayload(request: FastifyRequest, reply: FastifyReply, payload: PayloadOutcome) {
  const { json, etag } = serialisePayload(payload);
  reply.header('cache-control', 'private, no-cache').type('application/json; charset=utf-8');
  if (payload.status === 200) {
    reply.header('etag', etag);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  return reply.code(payload.status).send(json);
}
