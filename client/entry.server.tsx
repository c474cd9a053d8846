import { StrictMode, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import { VisitorPartMode } from './components/visitor-part.tsx';
import { createSharedRenders, sharedData } from './router/shared-render.server.tsx';
import type { Locale } from '../contract/locales.ts';
import type { RenderedPage, RenderState } from '../contract/render-state.ts';
import { renderHeadTags, type SeoData } from '../contract/seo.ts';
import { jsonForScript } from '../contract/script-json.ts';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { ErrorScreen } from './components/error-screen.tsx';
import { IconProvider } from './components/icon.tsx';
import { registerTranslations, TranslationProvider } from './i18n.ts';
import { pageStateId } from './page-state.ts';
import { fallbackSeo } from './router/fallback-seo.ts';
import { hydrationJson } from './router/hydration-json.server.ts';
import { toPageErrorInfo, type PageErrorInfo } from './router/page-error.ts';
import type { Renderer, RendererSite } from './router/renderer.server.ts';
import { staticContext, staticRouterFor } from './router/static-router.server.ts';
import { RuntimeContext, type AppRuntime, type RuntimeSnapshot } from './runtime.tsx';

// The SSR bundle's entry: plugins/external/ssr.ts loads it and calls createRenderer once; what the two sides
// exchange is in router/renderer.server.ts and contract/render-state.ts.
export type { Renderer, RendererSite };

// Both languages' strings, compiled once (English first: Thai falls back to it).
registerTranslations('en', en);
registerTranslations('th', th);

/** The renderer for one server configuration; plugins/external/ssr.ts makes it once per loaded bundle. */
export function createRenderer(site: RendererSite): Renderer {
  /** The runtime snapshot as JSON, by language (and bot-ness on error pages): most pages send one of two. */
  const snapshots = new Map<string, string>();
  const runtimes = new Map<boolean, AppRuntime>();
  const heads = new WeakMap<SeoData, string>();

  function snapshotFor(
    request: Pick<RenderState, 'isBot' | 'flash' | 'status'>,
    locale: Locale,
    renderError?: PageErrorInfo,
  ): RuntimeSnapshot {
    return {
      buildId: site.buildId,
      dev: site.dev,
      ...(request.status !== 200 || renderError ? { isBot: request.isBot } : {}),
      locale,
      buildCheckIntervalMs: site.buildCheckIntervalMs,
      allowedExternalOrigins: site.allowedExternalOrigins,
      publicUrl: site.publicUrl,
      ...(site.icons ? { icons: site.icons } : {}),
      ...(site.iconFallbackUrl ? { iconFallbackUrl: site.iconFallbackUrl } : {}),
      ...(request.flash ? { flash: request.flash } : {}),
      ...(renderError ? { renderError: { statusCode: renderError.statusCode, message: renderError.message } } : {}),
    };
  }

  function snapshotJson(
    request: Pick<RenderState, 'isBot' | 'flash' | 'status' | 'static'>,
    locale: Locale,
    renderError?: PageErrorInfo,
  ): string {
    if (request.static) return jsonForScript({ ...snapshotFor(request, locale), static: true });
    if (request.flash || renderError) return jsonForScript(snapshotFor(request, locale, renderError));
    const key = request.status === 200 ? locale : `${locale} ${request.isBot}`;
    let json = snapshots.get(key);
    if (json === undefined) {
      json = jsonForScript(snapshotFor(request, locale));
      snapshots.set(key, json);
    }
    return json;
  }

  function runtimeFor(request: Pick<RenderState, 'isBot' | 'flash'>): AppRuntime {
    const shared = runtimes.get(request.isBot);
    if (shared && !request.flash) return shared;
    const runtime: AppRuntime = {
      buildId: site.buildId,
      dev: site.dev,
      isBot: request.isBot,
      isServerError: () => true,
      buildCheckIntervalMs: site.buildCheckIntervalMs,
      allowedExternalOrigins: site.allowedExternalOrigins,
      publicUrl: site.publicUrl,
      ...(request.flash ? { flash: request.flash } : {}),
    };
    if (!request.flash) runtimes.set(request.isBot, runtime);
    return runtime;
  }

  /** The document head: the language's font preload, then the page's tags (contract/seo.ts). */
  function headFor(seo: SeoData, locale: Locale): string {
    // Content pages hand the same frozen `seo` object to every request: its tags are written once.
    const shared = Object.isFrozen(seo);
    let head = shared ? heads.get(seo) : undefined;
    if (head === undefined) {
      head = (site.fontPreloads?.[locale] ?? '') + renderHeadTags(seo, { locale, publicUrl: site.publicUrl });
      if (shared) heads.set(seo, head);
    }
    return head;
  }

  /**
   * The page's state for the browser as data, not code: a `<script type="application/json">` never
   * executes, so the CSP needs no nonce or hash and cached bytes stay valid (decision 0013).
   * client/page-state.ts reads it back before anything else runs.
   */
  function scriptsFor(snapshot: string, state?: StaticHandlerContext): string {
    const router = state ? `,"router":${hydrationJson(state)}` : '';
    return `<script type="application/json" id="${pageStateId}">{"runtime":${snapshot}${router}}</script>`;
  }

  /** The providers above the router, the same for a page, its shell and its visitor parts. */
  function providers(state: RenderState, tree: ReactNode): ReactNode {
    return (
      <RuntimeContext.Provider value={runtimeFor(state)}>
        <IconProvider icons={site.icons}>{tree}</IconProvider>
      </RuntimeContext.Provider>
    );
  }

  function renderBody(state: RenderState, context: StaticHandlerContext, parts: 'inline' | 'marker'): string {
    return renderToString(
      <StrictMode>
        {providers(
          state,
          <VisitorPartMode.Provider value={parts}>
            <StaticRouterProvider router={staticRouterFor(context)} context={context} hydrate={false} />
          </VisitorPartMode.Provider>,
        )}
      </StrictMode>,
    );
  }

  const shared = createSharedRenders();

  /** A signed-in visitor's copy of a shared page comes from its shell (client/router/shared-render.server.tsx). */
  async function sharedBody(
    state: RenderState,
    context: StaticHandlerContext,
  ): Promise<{ body: string; warning?: string }> {
    const data = site.shareRenders ? sharedData(state) : undefined;
    if (!data) return { body: renderBody(state, context, 'inline') };
    const anonymous = { ...state, user: null };
    return shared.body(state, data, context, {
      whole: () => renderBody(state, context, 'inline'),
      shell: async () => renderBody(anonymous, await staticContext(anonymous), 'marker'),
      wrap: (tree) => providers(state, tree),
    });
  }

  async function render(state: RenderState): Promise<RenderedPage> {
    const { pathname, locale } = state;
    const error = state.error;
    const seo = (state.data as { seo?: SeoData } | null | undefined)?.seo ?? fallbackSeo(pathname, locale, error);
    try {
      const context = await staticContext(state);
      const { body, warning } = await sharedBody(state, context);
      return {
        ...(warning ? { warning } : {}),
        status: state.status,
        head: headFor(seo, locale),
        body,
        hydration: scriptsFor(snapshotJson(state, locale), state.static ? undefined : context),
        ...(error ? { error } : {}),
      };
    } catch (failure) {
      const info = toPageErrorInfo(failure, { exposeDetails: site.dev });
      return {
        status: 500,
        head: headFor(fallbackSeo(pathname, locale, info), locale),
        body: renderToString(
          <TranslationProvider locale={locale}>
            <ErrorScreen info={info} onClear={() => undefined} />
          </TranslationProvider>,
        ),
        hydration: scriptsFor(snapshotJson(state, locale, info)),
        error: info,
        failure,
      };
    }
  }

  return { render };
}
