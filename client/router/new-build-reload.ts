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
  currentId: string;
  intervalMs: number;
  router: SubscribableRouter;
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
 * Once another build is announced, the next client navigation becomes a full load of its target
 * (decision 0005). `subscribe` sees every navigation, whatever started it, before the page renders;
 * a non-GET submission is left alone, or the visitor would lose what they submitted.
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
