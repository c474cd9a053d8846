import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createPath, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import type { Locale } from '../contract/locales.ts';
import type { PageRoute } from '../contract/routes.ts';
import { BotBoundary } from './components/bot-boundary.tsx';
import { clearErrors, ErrorScreen } from './components/error-screen.tsx';
import { IconProvider } from './components/icon.tsx';
import { loadAccountStrings, loadTranslations, TranslationProvider } from './i18n.ts';
import { lazyIconLoader } from './lib/lazy-icon-loader.ts';
import { botVisitor, detectBot } from './lib/bot-visitor.ts';
import { isChunkLoadError } from './lib/chunk-reload-guard.ts';
import { appRouter, createAppRouter } from './lib/app-router.ts';
import { hardNavigate, isLeavingPage } from './lib/navigation-state.ts';
import { currentUser } from './lib/user-cache.ts';
import { guardLazyRoutes, listenForPreloadErrors } from './router/chunk-reload.ts';
import { installPageState } from './page-state.ts';
import { toPageErrorInfo } from './router/page-error.ts';
import { createRouteObjects, type PageModule } from './router/route-objects.tsx';
import { loadNavigation, navigationLoaded } from './router/navigation-code.ts';
import { RuntimeContext, type AppRuntime, type RuntimeSnapshot } from './runtime.tsx';
import './fonts.css';
import './styles.css';

declare global {
  interface Window {
    __ASDAS__: RuntimeSnapshot;
  }
}

export const initializationErrorLog = 'error caught during app initialization';

/** Each page's component module (`client/<route.module>`), a chunk of its own. */
const pageFiles = import.meta.glob<PageModule>('./pages/*.tsx');

/** A page's module, with its language's account strings for a page that shows them (`strings: 'account'`). */
async function loadPageModule(route: PageRoute, locale: Locale): Promise<PageModule> {
  const [page] = await Promise.all([
    pageFiles[`./${route.module}`]!(),
    route.strings === 'account' ? loadAccountStrings(locale) : undefined,
  ]);
  return page;
}

// Loaders run only for client navigations, so their code loads after hydration
// (router/navigation.ts). Once loaded they use it without waiting: a wait would show a form's
// action data and the new location in two renders, moving focus twice.

const routes = createRouteObjects({
  loadLocale: loadTranslations,
  loadPageModule,
  rootLoader: () => ({ user: currentUser() }),
  // The root's data (who is logged in) changes only through form submissions (login, logout ...).
  shouldRevalidateRoot: ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) =>
    (formMethod !== undefined || currentUrl.href === nextUrl.href) && defaultShouldRevalidate,
  pageMiddleware:
    (route, locale) =>
    async ({ params, request }) => {
      const { checkPage } = navigationLoaded() ?? (await loadNavigation());
      checkPage({ route, locale, params, url: new URL(request.url), user: currentUser() });
    },
  pageLoader:
    (route) =>
    async ({ params, request }) => {
      const url = new URL(request.url);
      const { loadPage, fetchPayload } = navigationLoaded() ?? (await loadNavigation());
      return loadPage({ route, params, url, fetchData: () => fetchPayload(url.pathname, request.signal) });
    },
  // Every page's form, with JavaScript: the same action as without, answered as JSON (router/form-post.ts).
  pageAction:
    (route, locale) =>
    async ({ request }) => {
      const [{ postForm }, page] = await Promise.all([
        navigationLoaded() ?? loadNavigation(),
        loadPageModule(route, locale),
      ]);
      return postForm(request, page.emptyFormErrors);
    },
});

// A page whose code fails to load during a navigation is loaded again as a document, once.
const chunkErrors = new WeakSet<object>();
listenForPreloadErrors(window, chunkErrors);
guardLazyRoutes(routes, {
  seen: chunkErrors,
  navigationTarget: () => {
    const target = appRouter()?.state.navigation.location;
    return target ? createPath(target) : null;
  },
  reload: (path) => hardNavigate(path),
  leaving: isLeavingPage,
});

/** The page's own code must be in place before hydrating, or React would see an empty page. */
async function loadInitialRouteModules(routeObjects: RouteObject[]) {
  const lazyMatches = matchRoutes(routeObjects, window.location)?.filter((match) => match.route.lazy) ?? [];
  await Promise.all(
    lazyMatches.map(async (match) => {
      const loaded = await (match.route.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(match.route, { ...loaded, lazy: undefined });
    }),
  );
}

async function start() {
  const snapshot = installPageState(document, window);
  const container = document.getElementById('root');
  if (!container || !snapshot) throw new Error('The page is missing its server-rendered state.');
  if (snapshot.static) return;

  await loadTranslations(snapshot.locale);
  if (snapshot.renderError) {
    const info = { ...snapshot.renderError, fatal: true };
    hydrateRoot(
      container,
      <TranslationProvider locale={snapshot.locale}>
        <ErrorScreen info={info} onClear={clearErrors} />
      </TranslationProvider>,
    );
    return;
  }

  const serverHtml = container.innerHTML;
  await loadInitialRouteModules(routes);
  const router = createAppRouter(routes);
  const serverErrors = new Set(Object.values(router.state.errors ?? {}));
  const runtime: AppRuntime = {
    buildId: snapshot.buildId,
    dev: snapshot.dev,
    // An error page says what the server drew; otherwise isbot's answer, a crawler's until it comes.
    get isBot() {
      return snapshot.isBot ?? botVisitor() ?? true;
    },
    isServerError: (error) => serverErrors.has(error),
    buildCheckIntervalMs: snapshot.buildCheckIntervalMs,
    allowedExternalOrigins: snapshot.allowedExternalOrigins,
    publicUrl: snapshot.publicUrl,
    ...(snapshot.flash ? { flash: snapshot.flash } : {}),
  };
  const iconLoader = lazyIconLoader(snapshot.iconFallbackUrl ? { fallbackUrl: snapshot.iconFallbackUrl } : {});
  // A transition yields to the browser while hydrating (one long task otherwise, decision 0037).
  startTransition(() => {
    hydrateRoot(
      container,
      <StrictMode>
        <BotBoundary serverHtml={serverHtml}>
          <RuntimeContext.Provider value={runtime}>
            <IconProvider icons={snapshot.icons} loader={iconLoader}>
              <RouterProvider router={router} />
            </IconProvider>
          </RuntimeContext.Provider>
        </BotBoundary>
      </StrictMode>,
    );
  });

  loadNavigation().catch(() => undefined);
  void detectBot();
  if (!snapshot.dev) {
    // Loaded after hydration, not with the page: its first look at the build is an interval away
    // (an hour by default). A chunk that fails to load leaves this page without the check.
    const { startNewBuildReload } = await import('./router/new-build-reload.ts').catch(() => ({
      startNewBuildReload: undefined,
    }));
    startNewBuildReload?.({
      currentId: snapshot.buildId,
      intervalMs: snapshot.buildCheckIntervalMs,
      router,
      hardNavigate: (path) => hardNavigate(path),
      onOutdated: (latest) => {
        document.documentElement.dataset.outdatedBuild = latest.id;
      },
    });
  }
}

/** The page's code did not load: a person gets the error screen (a bot keeps the server HTML). */
async function showStartupError(error: unknown) {
  const snapshot = window.__ASDAS__;
  const container = document.getElementById('root');
  if (!snapshot || !container || (snapshot.isBot ?? (await detectBot()))) return;
  const info = toPageErrorInfo(error, { exposeDetails: snapshot.dev });
  const show = () => {
    container.replaceChildren();
    createRoot(container).render(
      <TranslationProvider locale={snapshot.locale}>
        <ErrorScreen info={info} onClear={clearErrors} />
      </TranslationProvider>,
    );
  };
  // The strings may be what failed to load: then the screen shows its keys rather than nothing.
  loadTranslations(snapshot.locale).then(show, show);
}

start().catch((error: unknown) => {
  console.error(initializationErrorLog, error);
  if (isChunkLoadError(error) || (typeof error === 'object' && error !== null && chunkErrors.has(error))) {
    void showStartupError(error);
  }
});
