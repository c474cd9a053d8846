import { createPath, type Location } from 'react-router';
import { fetchLatestBuild, startBuildCheck, type BuildInfo } from '../lib/build-check.ts';

/** The part of the data router's state this module reads. */
export interface NavigationState {
  navigation: { state: 'idle' | 'loading' | 'submitting'; location?: Location; formMethod?: string };
}

export interface SubscribableRouter {
  subscribe(listener: (state: NavigationState) => void): () => void;
}

export interface NewBuildReloadOptions {
  /** The build this page was rendered by (`window.__ASDAS__.buildId`). */
  currentId: string;
  /** `window.__ASDAS__.buildCheckIntervalMs` (config `BUILD_CHECK_INTERVAL_MS`, default 3600000). */
  intervalMs: number;
  router: SubscribableRouter;
  /** A full document load of an internal path (client/lib/navigate.ts `hardNavigate`). */
  hardNavigate: (path: string) => void;
  fetchLatest?: () => Promise<BuildInfo>;
  /** Told once when a newer build is found (the browser marks `<html data-outdated-build>`). */
  onOutdated?: (latest: BuildInfo) => void;
}

export interface NewBuildReload {
  /** The newer build, once one was seen. */
  outdatedBy(): BuildInfo | null;
  stop(): void;
}

/**
 * New-build reload: polls `/builds/latest.json?<now>` (build-check.ts) and, once it names another
 * build, stops polling and turns the next client navigation into a full load of its target
 * (path, query and hash), so the visitor lands on the new build's HTML and code.
 *
 * The router is watched through `subscribe`: a navigation shows up as `navigation.state ===
 * 'loading'` with its target before any new page renders, whatever started it (a link,
 * navigateTo, a redirect, back/forward). A non-GET submission is left alone: reloading
 * would drop what the visitor submitted.
 */
export function startNewBuildReload(options: NewBuildReloadOptions): NewBuildReload {
  let outdated: BuildInfo | null = null;
  let leaving = false;
  let unsubscribe: (() => void) | undefined;

  const stopCheck = startBuildCheck({
    currentId: options.currentId,
    intervalMs: options.intervalMs,
    fetchLatest: options.fetchLatest ?? (() => fetchLatestBuild()),
    onOutdated(latest) {
      outdated = latest;
      options.onOutdated?.(latest);
      unsubscribe = options.router.subscribe(({ navigation }) => {
        if (leaving || navigation.state !== 'loading' || !navigation.location) return;
        if (navigation.formMethod && navigation.formMethod.toUpperCase() !== 'GET') return;
        leaving = true;
        options.hardNavigate(createPath(navigation.location));
      });
    },
  });

  return {
    outdatedBy: () => outdated,
    stop() {
      stopCheck();
      unsubscribe?.();
    },
  };
}
