import type { RuntimeSnapshot } from './runtime.tsx';

/** The id of the page's `<script type="application/json">` carrying its state (decision 0013). */
export const pageStateId = 'asdas-state';

interface PageState {
  runtime: RuntimeSnapshot;
  /** react-router's hydration data (absent on the error screen a failed render sends). */
  router?: unknown;
}

/**
 * Reads the state the server wrote into the page as JSON and puts it where the app and
 * react-router look for it (`window.__ASDAS__`, `window.__staticRouterHydrationData`, which
 * react-router revives errors from). The data is not an inline script, so the CSP allows no
 * inline script at all and a cached page needs no per-response nonce.
 */
export function installPageState(doc: Document, target: Window): RuntimeSnapshot | undefined {
  const text = doc.getElementById(pageStateId)?.textContent;
  if (!text) return undefined;
  const state = JSON.parse(text) as PageState;
  const globals = target as unknown as { __ASDAS__?: RuntimeSnapshot; __staticRouterHydrationData?: unknown };
  globals.__ASDAS__ = state.runtime;
  if (state.router !== undefined) globals.__staticRouterHydrationData = state.router;
  return state.runtime;
}
