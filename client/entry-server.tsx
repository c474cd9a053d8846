import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import { splitLocale, type Locale } from '../contract/locales.ts';
import { renderHeadTags, type SeoData } from '../contract/seo.ts';
import { notFoundMessages } from '../contract/http-error.ts';
import { encodeRedirectLocation } from '../contract/navigation-guard.ts';
import { jsonForScript } from '../contract/script-json.ts';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { renderErrorLog } from './components/error-boundaries.tsx';
import { ErrorScreen } from './components/error-screen.tsx';
import { IconProvider } from './components/icon.tsx';
import { registerTranslations, TranslationProvider } from './i18n.ts';
import { pageStateId } from './page-state.ts';
import { fallbackSeo } from './router/fallback-seo.ts';
import { firstError, hydrationJson } from './router/hydration-json.ts';
import { toPageErrorInfo, type PageErrorInfo } from './router/page-error.ts';
import type {
  DocumentOutcome,
  PayloadOutcome,
  Renderer,
  RendererSite,
  ServerRequestContext,
} from './router/renderer-api.ts';
import {
  directLoaders,
  externalRedirectHeader,
  handler,
  isPassThrough,
  type LoaderContext,
  matchPath,
  pageModules,
  redirectStatus,
  requestFor,
  staticRouterFor,
} from './router/server-router.ts';
import { RuntimeContext, type AppRuntime, type RuntimeSnapshot } from './runtime.tsx';

// The SSR bundle's entry: plugins/ssr.ts loads it and calls createRenderer once. The route table's
// server side is in router/server-router.ts, what the two sides exchange in router/renderer-api.ts.
export type { DocumentOutcome, PayloadOutcome, Renderer, RendererSite, ServerRequestContext };

// Both languages' strings, compiled once (English first: Thai falls back to it).
registerTranslations('en', en);
registerTranslations('th', th);

/** The renderer for one server configuration; plugins/ssr.ts makes it once per loaded bundle. */
export function createRenderer(site: RendererSite): Renderer {
  /** The runtime snapshot as JSON, by language and bot-ness: most pages send one of these four. */
  const snapshots = new Map<string, string>();
  const runtimes = new Map<boolean, AppRuntime>();
  const heads = new WeakMap<SeoData, string>();

  function snapshotFor(request: ServerRequestContext, locale: Locale, renderError?: PageErrorInfo): RuntimeSnapshot {
    return {
      buildId: site.buildId,
      dev: site.dev,
      isBot: request.isBot,
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

  function snapshotJson(request: ServerRequestContext, locale: Locale, renderError?: PageErrorInfo): string {
    if (request.flash || renderError) return jsonForScript(snapshotFor(request, locale, renderError));
    const key = `${locale} ${request.isBot}`;
    let json = snapshots.get(key);
    if (json === undefined) {
      json = jsonForScript(snapshotFor(request, locale));
      snapshots.set(key, json);
    }
    return json;
  }

  function runtimeFor(request: ServerRequestContext): AppRuntime {
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

  async function renderDocument(
    url: string,
    request: ServerRequestContext,
    options: { form?: string } = {},
  ): Promise<DocumentOutcome> {
    const parsed = new URL(url, 'http://localhost');
    const { pathname } = parsed;
    const { locale } = splitLocale(pathname);
    const context: LoaderContext = { site, request };
    // react-router's static handler: a GET runs the loaders, a form posted without JavaScript its action first.
    const asked = options.form === undefined ? new Request(parsed) : requestFor(url, options.form);
    const state = await handler.query(asked, { requestContext: context });
    if (state instanceof Response) {
      const raw = state.headers.get('location') ?? '/';
      if (state.headers.get(externalRedirectHeader))
        return { type: 'redirect', status: redirectStatus(state.status), location: raw, external: true };
      // The same guard as navigateTo: an encoded path on this site, never `//evil` or `/\evil`.
      const location = encodeRedirectLocation(raw);
      return { type: 'redirect', status: redirectStatus(state.status), location };
    }
    const leafId = state.matches[state.matches.length - 1]?.route.id ?? '';
    const leafData = state.loaderData[leafId] as { seo?: SeoData } | undefined;
    const pageModule = pageModules.get(leafId);
    const error = firstError(state);
    const seo = leafData?.seo ?? fallbackSeo(pathname, locale, error);
    try {
      const body = renderToString(
        <StrictMode>
          <RuntimeContext.Provider value={runtimeFor(request)}>
            <IconProvider icons={site.icons}>
              <StaticRouterProvider router={staticRouterFor(state)} context={state} hydrate={false} />
            </IconProvider>
          </RuntimeContext.Provider>
        </StrictMode>,
      );
      return {
        type: 'page',
        status: state.statusCode,
        locale,
        head: headFor(seo, locale),
        body,
        scripts: scriptsFor(snapshotJson(request, locale), state),
        ...(pageModule ? { pageModule } : {}),
        ...(error ? { error } : {}),
      };
    } catch (renderFailure) {
      request.logError(renderFailure, renderErrorLog);
      const info = toPageErrorInfo(renderFailure, { exposeDetails: site.dev });
      return {
        type: 'page',
        status: 500,
        locale,
        head: headFor(fallbackSeo(pathname, locale, info), locale),
        body: renderToString(
          <TranslationProvider locale={locale}>
            <ErrorScreen info={info} onClear={() => undefined} />
          </TranslationProvider>,
        ),
        scripts: scriptsFor(snapshotJson(request, locale, info)),
        error: info,
      };
    }
  }

  async function loadPayload(pathname: string, request: ServerRequestContext): Promise<PayloadOutcome> {
    const matches = matchPath(pathname);
    const leaf = matches?.[matches.length - 1];
    if (!leaf)
      return { status: 404, body: { statusCode: 404, message: notFoundMessages.page(pathname), fatal: false } };
    const context: LoaderContext = { site, request };
    try {
      const load = directLoaders.get(leaf.route.id);
      const data = load
        ? await load({ url: new URL(pathname, 'http://localhost'), params: leaf.params, context })
        : null;
      return { status: 200, body: { buildId: site.buildId, data } };
    } catch (error) {
      if (error instanceof Response) {
        return { status: 200, body: { redirect: encodeRedirectLocation(error.headers.get('location') ?? '/') } };
      }
      const info = toPageErrorInfo(isPassThrough(error) ? dataErrorResponse(error) : error, {
        exposeDetails: site.dev,
      });
      return {
        status: info.statusCode,
        body: { statusCode: info.statusCode, message: info.message, fatal: info.fatal },
      };
    }
  }

  return { renderDocument, loadPayload };
}

function dataErrorResponse(error: unknown): unknown {
  const { data } = error as { data: unknown };
  return data;
}
