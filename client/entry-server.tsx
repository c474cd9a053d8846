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
import { locales, splitLocale, type Locale } from '../lib/locales.ts';
import { isPageNotFound, type FormActionArgs, type FormActionResult, type PageDataSource, type PublicUser } from '../lib/page-data.ts';
import type { SeoData } from '../lib/seo.ts';
import { ErrorScreen } from './components/error-screen.tsx';
import { IconProvider } from './components/icon.tsx';
import { renderErrorLog } from './components/error-boundaries.tsx';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { registerTranslations, TranslationProvider } from './i18n.ts';
import type { IconDataMap } from './lib/icon-loader.ts';
import { encodeRedirectLocation } from './lib/navigation-guard.ts';
import { fallbackSeo } from './router/fallback-seo.ts';
import { displayPath, loadPage } from './router/page-loader.ts';
import { notFound, pageError, toPageErrorInfo, type PageErrorInfo } from './router/page-error.ts';
import { createRouteObjects, pageRouteId } from './router/route-objects.tsx';
import { safeRedirectPath } from './lib/navigation-guard.ts';
import { pageRoutes, type PageRoute } from './routes.ts';
import { RuntimeContext, type AppRuntime, type RuntimeSnapshot } from './runtime.tsx';
import { pageStateId } from './page-state.ts';
import { serializeForScript } from './serialize.ts';

// Both languages' strings, compiled once (English first: Thai falls back to it).
registerTranslations('en', en);
registerTranslations('th', th);

/** What the Fastify side hands the renderer for one request. */
export interface ServerRequestContext {
  user: PublicUser | null;
  /** The id of the session behind `user` (the account page marks it), or null. */
  sessionId?: string | null;
  isBot: boolean;
  dev: boolean;
  buildId: string;
  buildCheckIntervalMs: number;
  allowedExternalOrigins: string[];
  publicUrl: string;
  dataSource: (name: string) => PageDataSource;
  /** Runs a named form action for a form posted without JavaScript (may set cookies). */
  runFormAction: (name: string, args: FormActionArgs) => Promise<FormActionResult>;
  /** Renders the document head for the page's `seo` data (lib/seo.ts on the server). */
  renderHead: (seo: SeoData, locale: Locale) => string;
  logError: (error: unknown, message: string) => void;
  /** The icons of client/icons.ts, resolved once at start (plugins/ssr.ts): rendered inline. */
  icons?: IconDataMap;
  /** The browser's icon fallback when our endpoint fails (the configured upstream). */
  iconFallbackUrl?: string;
  /** A one-shot message for this page (the `flash` cookie, already cleared): client/lib/flash.ts. */
  flash?: string;
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
      /** The matched page's module (client/routes.ts `module`): the browser loads it before hydrating. */
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

async function serverData(context: ServerRequestContext, route: PageRoute, locale: Locale, args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  try {
    return await context.dataSource(route.data!)({
      locale,
      params: args.params,
      path: splitLocale(url.pathname).path,
      user: context.user,
      sessionId: context.sessionId ?? null,
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

const routes = createRouteObjects({
  pageAction: (route, locale) => async ({ request, context }) => {
    const url = new URL(request.url);
    const redirectParam = url.searchParams.get('redirect');
    const result = await (context as ServerRequestContext).runFormAction(route.action!, {
      locale,
      fields: await formFields(request),
      redirectTo: redirectParam === null ? null : safeRedirectPath(redirectParam, '') || null,
    });
    // 303: the browser follows with a GET, so a reload never posts the form again.
    if (result.ok) throw redirect(result.redirect, { status: 303, headers: result.external ? { [externalRedirectHeader]: '1' } : {} });
    const { ok: _ok, status, ...state } = result;
    return data(state, { status });
  },
  rootLoader: ({ context }) => ({ user: (context as ServerRequestContext).user }),
  pageLoader: (route, locale) => async (args) => {
    const context = args.context as ServerRequestContext;
    try {
      return await loadPage({
        route,
        locale,
        params: args.params,
        url: new URL(args.request.url),
        user: context.user,
        fetchData: () => serverData(context, route, locale, args),
      });
    } catch (error) {
      if (isPassThrough(error)) throw error;
      context.logError(error, renderErrorLog);
      const info = toPageErrorInfo(error, { exposeDetails: context.dev });
      return pageError(info.statusCode, info.message, { fatal: true, unhandled: info.unhandled, stack: info.stack });
    }
  },
});

// Built once at start: the handler holds the route tree every request is matched against.
const handler = createStaticHandler(routes);
const pageModules = new Map(locales.flatMap((locale) => pageRoutes.map((route) => [pageRouteId(locale, route), route.module] as const)));

function requestFor(url: string, signal?: AbortSignal, form?: string): Request {
  return new Request(new URL(url, 'http://localhost'), {
    ...(signal ? { signal } : {}),
    ...(form === undefined
      ? {}
      : { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  });
}

function snapshotFor(context: ServerRequestContext, locale: Locale, renderError?: PageErrorInfo): RuntimeSnapshot {
  return {
    buildId: context.buildId,
    dev: context.dev,
    isBot: context.isBot,
    locale,
    buildCheckIntervalMs: context.buildCheckIntervalMs,
    allowedExternalOrigins: context.allowedExternalOrigins,
    publicUrl: context.publicUrl,
    ...(context.icons ? { icons: context.icons } : {}),
    ...(context.iconFallbackUrl ? { iconFallbackUrl: context.iconFallbackUrl } : {}),
    ...(context.flash ? { flash: context.flash } : {}),
    ...(renderError ? { renderError: { statusCode: renderError.statusCode, message: renderError.message } } : {}),
  };
}

/** The react-router hydration data, in the format `createBrowserRouter` reads back. */
function hydrationData(state: StaticHandlerContext) {
  const errors = state.errors
    ? Object.fromEntries(
        Object.entries(state.errors).map(([id, error]) => [
          id,
          isRouteErrorResponse(error) ? { ...error, __type: 'RouteErrorResponse' } : { message: 'Internal Server Error', __type: 'Error' },
        ]),
      )
    : null;
  return { loaderData: state.loaderData, actionData: state.actionData, errors };
}

/**
 * The page's state for the browser as data, not code: a `<script type="application/json">` never
 * executes, so the CSP needs no nonce or hash and cached bytes stay valid (decision 0013).
 * client/page-state.ts reads it back before anything else runs.
 */
function scriptsFor(snapshot: RuntimeSnapshot, state?: StaticHandlerContext): string {
  const router = state ? `,"router":${serializeForScript(hydrationData(state))}` : '';
  return `<script type="application/json" id="${pageStateId}">{"runtime":${serializeForScript(snapshot)}${router}}</script>`;
}

function firstError(state: StaticHandlerContext): PageErrorInfo | undefined {
  const error = state.errors ? Object.values(state.errors)[0] : undefined;
  return error === undefined ? undefined : toPageErrorInfo(error, { exposeDetails: false });
}

/**
 * Renders one page: redirects from middleware or a form action, or the HTML with its status,
 * head and hydration data. `form` is the urlencoded body of a form posted without JavaScript.
 */
export async function renderDocument(
  url: string,
  context: ServerRequestContext,
  options: { signal?: AbortSignal; form?: string } = {},
): Promise<DocumentOutcome> {
  const { locale } = splitLocale(new URL(url, 'http://localhost').pathname);
  const state = await handler.query(requestFor(url, options.signal, options.form), { requestContext: context });
  if (state instanceof Response) {
    const raw = state.headers.get('location') ?? '/';
    if (state.headers.get(externalRedirectHeader)) return { type: 'redirect', status: redirectStatus(state.status), location: raw, external: true };
    // The same guard as navigateTo: an encoded path on this site, never `//evil` or `/\evil`.
    const location = encodeRedirectLocation(raw);
    return { type: 'redirect', status: redirectStatus(state.status), location };
  }
  const runtime: AppRuntime = {
    buildId: context.buildId,
    dev: context.dev,
    isBot: context.isBot,
    isServerError: () => true,
    buildCheckIntervalMs: context.buildCheckIntervalMs,
    allowedExternalOrigins: context.allowedExternalOrigins,
    publicUrl: context.publicUrl,
    ...(context.flash ? { flash: context.flash } : {}),
  };
  const leafId = state.matches[state.matches.length - 1]?.route.id ?? '';
  const leafData = state.loaderData[leafId] as { seo?: SeoData } | undefined;
  const pageModule = pageModules.get(leafId);
  const error = firstError(state);
  const seo = leafData?.seo ?? fallbackSeo(new URL(url, 'http://localhost').pathname, locale, error);
  try {
    const router = createStaticRouter(handler.dataRoutes, state);
    const body = renderToString(
      <StrictMode>
        <RuntimeContext.Provider value={runtime}>
          <IconProvider icons={context.icons}>
            <StaticRouterProvider router={router} context={state} hydrate={false} />
          </IconProvider>
        </RuntimeContext.Provider>
      </StrictMode>,
    );
    return {
      type: 'page',
      status: state.statusCode,
      locale,
      head: context.renderHead(seo, locale),
      body,
      scripts: scriptsFor(snapshotFor(context, locale), state),
      ...(pageModule ? { pageModule } : {}),
      ...(error ? { error } : {}),
    };
  } catch (renderFailure) {
    context.logError(renderFailure, renderErrorLog);
    const info = toPageErrorInfo(renderFailure, { exposeDetails: context.dev });
    return {
      type: 'page',
      status: 500,
      locale,
      head: context.renderHead(fallbackSeo(new URL(url, 'http://localhost').pathname, locale, info), locale),
      body: renderToString(
        <TranslationProvider locale={locale}>
          <ErrorScreen info={info} onClear={() => undefined} />
        </TranslationProvider>,
      ),
      scripts: scriptsFor(snapshotFor(context, locale, info)),
      error: info,
    };
  }
}

/** `{path}/_payload.json`: exactly what the page's loader returns, plus the build id. */
export async function loadPayload(pathname: string, context: ServerRequestContext, signal?: AbortSignal): Promise<PayloadOutcome> {
  const matches = matchRoutes(handler.dataRoutes, pathname);
  const leaf = matches?.[matches.length - 1];
  if (!leaf) return { status: 404, body: { statusCode: 404, message: `Page not found: ${pathname}`, fatal: false } };
  try {
    const data = leaf.route.loader && typeof leaf.route.loader === 'function'
      ? await leaf.route.loader({ request: requestFor(pathname, signal), params: leaf.params, context } as never)
      : null;
    return { status: 200, body: { buildId: context.buildId, data } };
  } catch (error) {
    if (error instanceof Response) {
      return { status: 200, body: { redirect: encodeRedirectLocation(error.headers.get('location') ?? '/') } };
    }
    const info = toPageErrorInfo(isPassThrough(error) ? dataErrorResponse(error) : error, { exposeDetails: context.dev });
    return { status: info.statusCode, body: { statusCode: info.statusCode, message: info.message, fatal: info.fatal } };
  }
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
