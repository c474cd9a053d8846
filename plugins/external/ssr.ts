import { resolve } from 'node:path';
import FastifyVite from '@fastify/vite';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Renderer, RendererSite } from '../../client/entry.server.tsx';
import { appIcons } from '../../contract/app-icons.ts';
import { builtAppIcons } from '../../lib/icons/built-app-icons.ts';
import { type PageErrorInfo, renderErrorLog } from '../../contract/page-error.ts';
import { localePath, splitLocale } from '../../contract/locales.ts';
import { isBotRequest } from '../../lib/bots.ts';
import { pageName, pageRoutes } from '../../contract/routes.ts';
import { renderStateOf } from '../../lib/pages/render-state.ts';
import type { RenderState } from '../../contract/render-state.ts';
import { projectRoot, readBuildInfo } from '../../lib/build-info.ts';
import { loadClientAssets, noClientAssets } from '../../lib/client-assets.ts';
import { compileHtmlTemplate } from '../../lib/html-template.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { pageFontPreloads } from '../../lib/page-fonts.ts';

type HtmlFunction = (this: FastifyReply, values?: Record<string, unknown>) => FastifyReply;

interface RendererModule {
  createRenderer(site: RendererSite): Renderer;
}

/** `app.renderer`: the SSR bundle, which turns what routes/pages/ decided into a document. */
export interface PageRenderer {
  /** Renders `state` and sends it as HTML with its status; a render failure is logged and shown. */
  sendDocument(
    request: FastifyRequest,
    reply: FastifyReply,
    state: RenderState,
    pageModule?: string,
  ): Promise<FastifyReply>;
  /**
   * An address refused before its page could run (400 MALFORMED_PATH, 414 PATH_TOO_LONG) as a
   * browser sees it: the framed error in the address's language, drawn at the language's home (the
   * address is one no router reads) and not hydrated.
   */
  sendRefused(request: FastifyRequest, reply: FastifyReply, info: PageErrorInfo): Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyInstance {
    renderer: PageRenderer;
  }
  interface FastifyRequest {
    /** Set by plugins/app/accounts.ts. */
    user: PublicUser | null;
  }
}

const immutableAsset = 'public, max-age=31536000, immutable';
const ssrAssets = resolve(projectRoot, 'dist/server/assets');

/** Loads the SSR bundle (client/entry.server.tsx); production serves dist/ and never imports Vite. */
async function ssr(app: FastifyInstance) {
  const { config } = app;
  const build = readBuildInfo(config.dev);
  const assets = config.dev ? noClientAssets : loadClientAssets(resolve(projectRoot, 'dist/client'));

  // Given at start (in dev, per request): an address the router cannot decode reaches app.ts's
  // frameworkErrors on a bare reply, without the `render` and `html` @fastify/vite adds.
  const latest: { module?: RendererModule; html?: HtmlFunction } = {};

  await app.register(FastifyVite, {
    root: projectRoot,
    dev: config.dev,
    // The renderer is the SSR bundle itself, which @fastify/vite swaps on every request in dev.
    createRenderFunction: async (client) => {
      const module = client as unknown as RendererModule;
      latest.module = module;
      return async function render() {
        return { renderer: module };
      };
    },
    createHtmlFunction: async (source) => {
      const template = compileHtmlTemplate(source);
      latest.html = function html(this: FastifyReply, values?: Record<string, unknown>) {
        return this.type('text/html; charset=utf-8').send(template((values ?? {}) as Record<string, string>));
      };
      return latest.html;
    },
    fastifyStaticOptions: {
      cacheControl: false,
      // scripts/build.mjs writes `.br`/`.gz` next to each asset.
      preCompressed: true,
      // /assets/ by @fastify/vite's wildcard route, from the client's folder only (decision 0054).
      globIgnore: ['assets/**'],
      allowedPath: (_path: string, root: string | undefined) => !root?.startsWith(ssrAssets),
      // Only /assets/ is fingerprinted.
      setHeaders(reply, path) {
        reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? immutableAsset : 'public, max-age=3600');
      },
    },
  });
  await app.vite.ready();

  const icons = (config.dev ? undefined : builtAppIcons()) ?? (await app.icons.load(appIcons));
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
    shareRenders: config.pageCacheTtlMs > 0,
  };

  const renderers = new WeakMap<RendererModule, Renderer>();
  async function rendererFor(reply: FastifyReply): Promise<Renderer | undefined> {
    const module =
      typeof reply.render === 'function'
        ? ((await reply.render()) as { renderer: RendererModule }).renderer
        : latest.module;
    if (!module) return undefined;
    let renderer = renderers.get(module);
    if (!renderer) {
      renderer = module.createRenderer(site);
      renderers.set(module, renderer);
    }
    return renderer;
  }

  // While tracing is on, React's render is a span of its own, named by the page.
  const tracing = app.hasDecorator('tracing') ? app.tracing : undefined;
  function render(renderer: Renderer, state: RenderState, pageModule: string | undefined) {
    if (!tracing) return renderer.render(state);
    const name = pageModule ? pageName(pageModule) : 'error';
    return tracing.inSpan(`render ${name}`, { attributes: { 'asdas.page': name } }, async (span) => {
      const page = await renderer.render(state);
      if (page.failure !== undefined) tracing.fail(span, page.failure);
      return page;
    });
  }

  app.decorate('renderer', {
    sendRefused(request, reply, info) {
      const { locale } = splitLocale(request.url.split('?', 1)[0]!);
      const url = new URL(localePath(locale, '/'), 'http://localhost');
      const target = { route: pageRoutes.find((route) => route.id === 'home')!, locale, params: {} };
      const outcome = { type: 'error', target, status: info.statusCode, error: info } as const;
      const state = {
        ...renderStateOf(outcome, { url, user: null, isBot: isBotRequest(request) }),
        static: true as const,
      };
      reply.header('cache-control', 'no-store');
      return this.sendDocument(request, reply, state);
    },
    async sendDocument(request, reply, state, pageModule) {
      const renderer = await rendererFor(reply);
      // Only in dev, before its first request has loaded the bundle.
      if (!renderer) return reply.code(state.status).send({ statusCode: state.status, message: 'Not rendered yet' });
      const page = await render(renderer, state, pageModule);
      if (page.failure !== undefined) request.log.error({ err: page.failure }, renderErrorLog);
      if (page.warning !== undefined) request.log.warn(page.warning);
      const values = {
        lang: state.locale,
        buildId: build.id,
        head: page.head + assets.preloadTags(state.locale, page.failure === undefined ? pageModule : undefined),
        element: page.body,
        scripts: page.hydration,
      };
      reply.code(page.status);
      void (typeof reply.html === 'function' ? reply.html(values) : latest.html!.call(reply, values));
      return reply;
    },
  } satisfies PageRenderer);
}

export default fp(ssr, { name: 'ssr' });
