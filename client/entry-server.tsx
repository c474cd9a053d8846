import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  data,
  redirect,
  createStaticRouter,
  isRouteErrorResponse,
  matchRoutes,
  StaticRouterProvider,
  type LoaderFunctionArgs,
  type StaticHandlerContext,
} from 'react-router';
import { locales, splitLocale, type Locale } from '../contract/locales.ts';
import { isPageNotFound, type FormActionArgs, type FormActionResult, type PageDataSource, type PublicUser } from '../contract/page-data.ts';
import { renderHeadTags, type SeoData } from '../contract/seo.ts';
import { ErrorScreen } from './components/error-screen.tsx';
import { IconProvider } from './components/icon.tsx';
import { renderErrorLog } from './components/error-boundaries.tsx';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { registerTranslations, TranslationProvider } from './i18n.ts';
import type { IconDataMap } from './lib/icon-loader.ts';
import { encodeRedirectLocation } from '../contract/navigation-guard.ts';
import { fallbackSeo } from './router/fallback-seo.ts';
import { displayPath, loadPage } from './router/page-loader.ts';
import { notFound, pageError, toPageErrorInfo, type PageErrorInfo } from './router/page-error.ts';
import { createRouteObjects, pageRouteId } from './router/route-objects.tsx';
import { safeRedirectPath } from '../contract/navigation-guard.ts';
import type { DataSourceKey } from '../contract/data-sources.ts';
import { pageRoutes, type PageRoute } from '../contract/routes.ts';
import { pageModules as pageBindings } from './pages.ts';
import { RuntimeContext, type AppRuntime, type RuntimeSnapshot } from './runtime.tsx';
import { pageStateId } from './page-state.ts';
import { jsonForScript } from '../contract/script-json.ts';

// Both languages' strings, compiled once (English first: Thai falls back to it).
registerTranslations('en', en);
registerTranslations('th', th);

/**
 * What never changes while the server runs, handed to `createRenderer` once (plugins/ssr.ts):
 * everything derived from it (the runtime snapshot's JSON, head parts) is computed once too.
 */
export interface RendererSite {
  dev: boolean;
  buildId: string;
  buildCheckIntervalMs: number;
  allowedExternalOrigins: string[];
  publicUrl: string;
  /** `<link rel="preload">` of each language's font (lib/page-fonts.ts), written before the head tags. */
  fontPreloads?: Partial<Record<Locale, string>>;
  /** The icons of contract/app-icons.ts, resolved once at start (plugins/ssr.ts): rendered inline. */
  icons?: IconDataMap;
  /** The browser's icon fallback when our endpoint fails (the configured upstream). */
  iconFallbackUrl?: string;
  dataSource: (name: DataSourceKey) => PageDataSource;
}

/** What the server knows about one request: who asks, and the two things only it can do. */
export interface ServerRequestContext {
  user: PublicUser | null;
  /** The id of the session behind `user` (the account page marks it), or null. */
  sessionId?: string | null;
  isBot: boolean;
  /** A one-shot message for this page (the `flash` cookie, already cleared): client/lib/flash.ts. */
  flash?: string;
  /** Runs a named form action for a form posted without JavaScript (may set cookies). */
  runFormAction: (name: string, args: FormActionArgs) => Promise<FormActionResult>;
  logError: (error: unknown, message: string) => void;
}

export interface Renderer {
  /**
   * Renders one page: redirects from middleware or a form action, or the HTML with its status,
   * head and hydration data. `form` is the urlencoded body of a form posted without JavaScript.
   */
  renderDocument(url: string, request: ServerRequestContext, options?: { signal?: AbortSignal; form?: string }): Promise<DocumentOutcome>;
  /** `{path}/_payload.json`: exactly what the page's loader returns, plus the build id. */
  loadPayload(pathname: string, request: ServerRequestContext, signal?: AbortSignal): Promise<PayloadOutcome>;
}

/** What the route loaders and actions get as react-router's request context. */
interface LoaderContext {
  site: RendererSite;
  request: ServerRequestContext;
}

/** Marks a form action's redirect that leaves the site on purpose (Play to PLAY_URL). */
const externalRedirectHeader = 'x-asdas-external-redirect';

export type DocumentOutcome =
  /** `external`: an absolute URL a form action chose (the server checks its origin against its allow-list). */
  | { type: 'redirect'; status: number; location: string; external?: boolean }
  | {
      type: 'page';
      status: number;
      locale: Locale;
      head: string;
      body: string;
      scripts: string;
      /** The matched page's module (contract/routes.ts `module`): the browser loads it before hydrating. */
      pageModule?: string;
      error?: PageErrorInfo;
    };

export interface PayloadOutcome {
  status: number;
  body: { buildId: string; data: unknown } | { redirect: string } | { statusCode: number; message: string; fatal: boolean };
}

/** A redirect from route middleware: 302 unless it asked for another redirect status. */
function redirectStatus(status: number): number {
  return [301, 302, 303, 307, 308].includes(status) ? status : 302;
}

function isPassThrough(error: unknown): boolean {
  return (
    error instanceof Response ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'DataWithResponseInit')
  );
}

async function serverData({ site, request }: LoaderContext, route: PageRoute, locale: Locale, args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  try {
    return await site.dataSource(route.data!)({
      locale,
      params: args.params,
      path: splitLocale(url.pathname).path,
      user: request.user,
      sessionId: request.sessionId ?? null,
    });
  } catch (error) {
    if (isPageNotFound(error)) notFound(displayPath(url));
    throw error;
  }
}

async function formFields(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of await request.formData()) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

// Every page module, loaded once at start: the server's routes carry their components directly,
// so no request resolves a lazy route (the browser keeps loading each page's chunk on demand).
const pageModulesById = new Map(await Promise.all(pageRoutes.map(async (route) => [route.id, await pageBindings[route.id]()] as const)));

const routes = createRouteObjects({
  pages: pageModulesById,
  pageAction: (route, locale) => async ({ request, context }) => {
    const url = new URL(request.url);
    const redirectParam = url.searchParams.get('redirect');
    const result = await (context as LoaderContext).request.runFormAction(route.action!, {
      locale,
      fields: await formFields(request),
      redirectTo: redirectParam === null ? null : safeRedirectPath(redirectParam, '') || null,
    });
    // 303: the browser follows with a GET, so a reload never posts the form again.
    if (result.ok) throw redirect(result.redirect, { status: 303, headers: result.external ? { [externalRedirectHeader]: '1' } : {} });
    const { ok: _ok, status, ...state } = result;
    return data(state, { status });
  },
  rootLoader: ({ context }) => ({ user: (context as LoaderContext).request.user }),
  pageLoader: (route, locale) => async (args) => {
    const context = args.context as LoaderContext;
    try {
      return await loadPage({
        route,
        locale,
        params: args.params,
        url: new URL(args.request.url),
        user: context.request.user,
        fetchData: () => serverData(context, route, locale, args),
      });
    } catch (error) {
      if (isPassThrough(error)) throw error;
      context.request.logError(error, renderErrorLog);
      const info = toPageErrorInfo(error, { exposeDetails: context.site.dev });
      return pageError(info.statusCode, info.message, { fatal: true, unhandled: info.unhandled, stack: info.stack });
    }
  },
});

// Built once at start: the handler holds the route tree every request is matched against.
const handler = createStaticHandler(routes);
const pageModules = new Map(locales.flatMap((locale) => pageRoutes.map((route) => [pageRouteId(locale, route), route.module] as const)));

/**
 * `createStaticRouter` converts the whole route tree again on every call; the tree never changes,
 * so it is converted once here and each request gets a router that differs only in its state.
 */
const routerTemplate = createStaticRouter(handler.dataRoutes, {
  basename: '/',
  location: { pathname: '/', search: '', hash: '', state: null, key: 'default' },
  matches: [],
  loaderData: {},
  actionData: null,
  errors: null,
  statusCode: 200,
  loaderHeaders: {},
  actionHeaders: {},
} as unknown as StaticHandlerContext);
const idleRouterState = routerTemplate.state;

function staticRouterFor(state: StaticHandlerContext): typeof routerTemplate {
  const manifest = routerTemplate.manifest;
  const matches = state.matches.map((match) => ({ ...match, route: manifest[match.route.id] ?? match.route }));
  const routerState = {
    ...idleRouterState,
    location: state.location,
    matches,
    loaderData: state.loaderData,
    actionData: state.actionData,
    errors: state.errors,
    fetchers: new Map(),
    blockers: new Map(),
  };
  return Object.create(routerTemplate, {
    basename: { value: state.basename },
    state: { value: routerState },
  }) as typeof routerTemplate;
}

function requestFor(url: string, signal?: AbortSignal, form?: string): Request {
  return new Request(new URL(url, 'http://localhost'), {
    ...(signal ? { signal } : {}),
    ...(form === undefined
      ? {}
      : { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  });
}

/** JSON of shared, frozen page data (content), serialised once per object rather than per request. */
const serialisedData = new WeakMap<object, string>();

function serialiseShared(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return jsonForScript(value) ?? 'null';
  let json = serialisedData.get(value);
  if (json === undefined) {
    json = jsonForScript(value);
    serialisedData.set(value, json);
  }
  return json;
}

/** The react-router hydration data, in the format `createBrowserRouter` reads back. */
function hydrationJson(state: StaticHandlerContext): string {
  const loaderData = Object.entries(state.loaderData)
    .filter(([, value]) => value !== undefined)
    .map(([id, value]) => `${jsonForScript(id)}:${serialiseShared(value)}`)
    .join(',');
  const errors = state.errors
    ? jsonForScript(
        Object.fromEntries(
          Object.entries(state.errors).map(([id, error]) => [
            id,
            isRouteErrorResponse(error) ? { ...error, __type: 'RouteErrorResponse' } : { message: 'Internal Server Error', __type: 'Error' },
          ]),
        ),
      )
    : 'null';
  return `{"loaderData":{${loaderData}},"actionData":${jsonForScript(state.actionData ?? null)},"errors":${errors}}`;
}

function firstError(state: StaticHandlerContext): PageErrorInfo | undefined {
  const error = state.errors ? Object.values(state.errors)[0] : undefined;
  return error === undefined ? undefined : toPageErrorInfo(error, { exposeDetails: false });
}

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
    options: { signal?: AbortSignal; form?: string } = {},
  ): Promise<DocumentOutcome> {
    const { pathname } = new URL(url, 'http://localhost');
    const { locale } = splitLocale(pathname);
    const context: LoaderContext = { site, request };
    const state = await handler.query(requestFor(url, options.signal, options.form), { requestContext: context });
    if (state instanceof Response) {
      const raw = state.headers.get('location') ?? '/';
      if (state.headers.get(externalRedirectHeader)) return { type: 'redirect', status: redirectStatus(state.status), location: raw, external: true };
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

  async function loadPayload(pathname: string, request: ServerRequestContext, signal?: AbortSignal): Promise<PayloadOutcome> {
    const matches = matchRoutes(handler.dataRoutes, pathname);
    const leaf = matches?.[matches.length - 1];
    if (!leaf) return { status: 404, body: { statusCode: 404, message: `Page not found: ${pathname}`, fatal: false } };
    const context: LoaderContext = { site, request };
    try {
      const data = leaf.route.loader && typeof leaf.route.loader === 'function'
        ? await leaf.route.loader({ request: requestFor(pathname, signal), params: leaf.params, context } as never)
        : null;
      return { status: 200, body: { buildId: site.buildId, data } };
    } catch (error) {
      if (error instanceof Response) {
        return { status: 200, body: { redirect: encodeRedirectLocation(error.headers.get('location') ?? '/') } };
      }
      const info = toPageErrorInfo(isPassThrough(error) ? dataErrorResponse(error) : error, { exposeDetails: site.dev });
      return { status: info.statusCode, body: { statusCode: info.statusCode, message: info.message, fatal: info.fatal } };
    }
  }

  return { renderDocument, loadPayload };
}

function dataErrorResponse(error: unknown): unknown {
  const { data } = error as { data: unknown };
  return data;
}

/** The route ids a path renders, deepest last (used to preload the page's code). */
export function routeIdsFor(pathname: string): string[] {
  return matchRoutes(handler.dataRoutes, pathname)?.map((match) => match.route.id) ?? [];
}

export { pageRoutes, pageRouteId };
