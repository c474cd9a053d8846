import { resolve } from 'node:path';
import FastifyVite from '@fastify/vite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type {
  DocumentOutcome,
  PayloadOutcome,
  Renderer,
  RendererSite,
  ServerRequestContext,
} from '../client/entry-server.tsx';
import { appIcons } from '../contract/app-icons.ts';
import { encodeRedirectLocation } from '../contract/navigation-guard.ts';
import { wantsJson } from '../lib/accept.ts';
import { isBotRequest } from '../lib/bots.ts';
import { isDatabaseUnavailable } from '../lib/db/unavailable.ts';
import { projectRoot, readBuildInfo } from '../lib/build-info.ts';
import { matchesIfNoneMatch, strongEtag } from '../lib/etag.ts';
import { loadClientAssets, noClientAssets } from '../lib/client-assets.ts';
import { compileHtmlTemplate } from '../lib/html-template.ts';
import type { PublicUser } from '../contract/page-data.ts';
import { pageFontPreloads } from '../lib/page-fonts.ts';
import { originOf } from '../lib/same-origin.ts';

interface RendererModule {
  createRenderer(site: RendererSite): Renderer;
}

/** `app.pages`, called by routes/pages.ts. */
export interface Pages {
  /**
   * Renders `request.url` and sends HTML, a redirect, or the error as JSON to a client that asks
   * for JSON. `form`: a form's urlencoded body; `flash`: the one-shot notice (already cleared).
   */
  sendDocument(
    request: FastifyRequest,
    reply: FastifyReply,
    options?: { form?: string; flash?: string },
  ): Promise<FastifyReply>;
  sendPayload(request: FastifyRequest, reply: FastifyReply, pagePath: string): Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    pages: Pages;
  }
  interface FastifyRequest {
    /** Set by plugins/accounts.ts. */
    user: PublicUser | null;
  }
}

const immutableAsset = 'public, max-age=31536000, immutable';

/** Loads the SSR bundle (client/entry-server.tsx); production serves dist/ and never imports Vite. */
async function ssr(app: FastifyInstance) {
  const { config } = app;
  const build = readBuildInfo(config.dev);
  const assets = config.dev ? noClientAssets : loadClientAssets(resolve(projectRoot, 'dist/client'));

  await app.register(FastifyVite, {
    root: projectRoot,
    dev: config.dev,
    // The renderer is the SSR bundle itself, which @fastify/vite swaps on every request in dev.
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
      // scripts/build.mjs writes `.br`/`.gz` next to each asset.
      preCompressed: true,
      // Only /assets/ is fingerprinted.
      setHeaders(reply, path) {
        reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? immutableAsset : 'public, max-age=3600');
      },
    },
  });
  await app.vite.ready();

  const icons = await app.icons.load(appIcons);
  const unresolved = appIcons.filter((name) => !icons[name]);
  if (unresolved.length > 0)
    app.log.warn({ icons: unresolved }, 'icons listed in contract/app-icons.ts are not in the installed sets');

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

  // react-router turns a loader's or form action's throw into a 500 page: a database outage met
  // there is kept and rethrown after the render, so plugins/errors.ts answers 503 as for the API.
  const outages = new WeakMap<ServerRequestContext, unknown>();

  function contextFor(request: FastifyRequest, reply: FastifyReply, flash?: string): ServerRequestContext {
    const context: ServerRequestContext = {
      user: request.user ?? null,
      sessionId: request.sessionId ?? null,
      isBot: isBotRequest(request),
      flash,
      runFormAction: async (name, args) => {
        const action = app.formActions.get(name);
        if (!action) throw new Error(`No form action named '${name}'.`);
        try {
          return await action(args, request, reply);
        } catch (error) {
          if (isDatabaseUnavailable(error)) outages.set(context, error);
          throw error;
        }
      },
      logError: (error, message) => {
        if (isDatabaseUnavailable(error)) outages.set(context, error);
        else request.log.error({ err: error }, message);
      },
    };
    return context;
  }

  async function withContext<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    flash: string | undefined,
    render: (context: ServerRequestContext) => Promise<T>,
  ): Promise<T> {
    const context = contextFor(request, reply, flash);
    const outcome = await render(context);
    if (outages.has(context)) throw outages.get(context);
    return outcome;
  }

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

  // A route label for the request metrics: the router only knows `/*`.
  const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
  async function timed<T extends DocumentOutcome | PayloadOutcome>(
    request: FastifyRequest,
    kind: 'document' | 'payload',
    render: () => Promise<T>,
  ): Promise<T> {
    const started = performance.now();
    const outcome = await render();
    if (metrics) {
      const module = 'pageModule' in outcome ? outcome.pageModule : undefined;
      const page = module
        ? module.replace(/^pages\//, '').replace(/\.tsx?$/, '')
        : outcome.status >= 400
          ? String(outcome.status)
          : 'other';
      metrics.ssrRender.observe({ kind, page }, (performance.now() - started) / 1000);
      metrics.labelRoute(request, kind === 'payload' ? '/*/_payload.json' : `page:${page}`);
    }
    return outcome;
  }

  const allowedOrigins = new Set(
    [...config.allowedExternalOrigins, ...(config.playUrl ? [config.playUrl] : [])].map((url) => originOf(url)),
  );
  function isAllowedExternal(location: string): boolean {
    const origin = originOf(location);
    return origin !== undefined && origin !== 'null' && allowedOrigins.has(origin);
  }

  function send(request: FastifyRequest, reply: FastifyReply, outcome: DocumentOutcome) {
    // As navigateTo: the Location stays on this site (no `//evil`, `/\evil`), unless a form action
    // sends it to an origin the configuration allows (PLAY_URL).
    if (outcome.type === 'redirect') {
      const location =
        outcome.external && isAllowedExternal(outcome.location)
          ? outcome.location
          : encodeRedirectLocation(outcome.location);
      return reply.redirect(location, outcome.status);
    }
    const pathname = request.url.split('?')[0];
    reply.code(outcome.status);
    reply.header('cache-control', request.user ? 'private, no-cache' : 'no-cache');
    if (pathname === '/') reply.header('vary', 'Accept-Language, Cookie');
    if (outcome.error && wantsJson(request.headers.accept)) {
      return reply.send({ statusCode: outcome.error.statusCode, message: outcome.error.message });
    }
    void reply.html({
      lang: outcome.locale,
      buildId: build.id,
      head: outcome.head + assets.preloadTags(outcome.locale, outcome.pageModule),
      element: outcome.body,
      scripts: outcome.scripts,
    });
    return reply;
  }

  app.decorate('pages', {
    async sendDocument(request, reply, { form, flash } = {}) {
      const renderer = await rendererFor(reply);
      const outcome = await withContext(request, reply, flash, (context) =>
        timed(request, 'document', () =>
          renderer.renderDocument(request.url, context, form === undefined ? {} : { form }),
        ),
      );
      return send(request, reply, outcome);
    },
    async sendPayload(request, reply, pagePath) {
      const renderer = await rendererFor(reply);
      const outcome = await withContext(request, reply, undefined, (context) =>
        timed(request, 'payload', () => renderer.loadPayload(pagePath, context)),
      );
      return sendPayload(request, reply, outcome);
    },
  } satisfies Pages);
}

export default fp(ssr, { name: 'ssr', dependencies: ['form-actions'] });

/** Content data is shared and frozen: its JSON and ETag are made once per content version. */
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

function sendPayload(request: FastifyRequest, reply: FastifyReply, payload: PayloadOutcome) {
  const { json, etag } = serialisePayload(payload);
  reply.header('cache-control', 'private, no-cache').type('application/json; charset=utf-8');
  if (payload.status === 200) {
    reply.header('etag', etag);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  return reply.code(payload.status).send(json);
}
