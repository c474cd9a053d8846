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

/** What the SSR bundle (client/entry-server.tsx) exposes to the server. */
interface RendererModule {
  createRenderer(site: RendererSite): Renderer;
}

/** Renders pages for the pages' routes (routes/pages.ts): what each request asks is theirs to read. */
export interface Pages {
  /**
   * Renders the page at `request.url` and sends it: HTML (or the error as JSON to a client that
   * asks for JSON), or a redirect. `form` is the urlencoded body of a form posted without
   * JavaScript; `flash` the one-shot notice its redirect left (already cleared).
   */
  sendDocument(
    request: FastifyRequest,
    reply: FastifyReply,
    options?: { form?: string; flash?: string },
  ): Promise<FastifyReply>;
  /** `{pagePath}/_payload.json`: the page's loader data with a strong ETag, and 304 when unchanged. */
  sendPayload(request: FastifyRequest, reply: FastifyReply, pagePath: string): Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    pages: Pages;
  }
  interface FastifyRequest {
    /** The logged-in user, set by the accounts plugin (null when nobody is logged in). */
    user: PublicUser | null;
  }
}

const immutableAsset = 'public, max-age=31536000, immutable';

/**
 * The page renderer: loads the SSR bundle (client/entry-server.tsx) and decorates `app.pages`,
 * which the pages' routes (routes/pages.ts) call. Dev mode runs Vite's dev server with HMR;
 * production serves the build in dist/ (hashed assets with their `.br`/`.gz`) and never imports Vite.
 */
async function ssr(app: FastifyInstance) {
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
  if (unresolved.length > 0)
    app.log.warn({ icons: unresolved }, 'icons listed in contract/app-icons.ts are not in the installed sets');

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

  // The database was away for a loader or a form action: react-router turns what they threw
  // into an error page (500), so it is kept here and handed to the error handler after the
  // render, which answers 503 with Retry-After (plugins/errors.ts), as the API does.
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

  /** Renders with a new request context; a database outage met on the way is thrown after. */
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
    // Same guard as navigateTo: the Location stays on this site (no `//evil`, `/\evil`) and is encoded.
    // A form action may leave the site only for an origin the configuration allows (Play's PLAY_URL).
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
    // Sends the page (@fastify/vite's reply.html, made by createHtmlFunction above).
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
