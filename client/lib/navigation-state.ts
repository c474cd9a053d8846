/**
 * What the first load needs of navigation: whether the page is being left, and the full document
 * load. `navigateTo` (navigate.ts, with the URL guard) is loaded on demand; the chunk-failure
 * reload must not depend on loading a chunk.
 */

export type DocumentLocation = Pick<Location, 'pathname' | 'search' | 'hash' | 'assign' | 'replace' | 'reload'>;

let leavingPage = false;

/** True once a full document load was started from here. */
export function isLeavingPage(): boolean {
  return leavingPage;
}

/** A full document load; `reload()` when after a back/forward the address bar shows it already. */
export function hardNavigate(
  path: string,
  env: { location: DocumentLocation } = { location: window.location },
  replace = false,
): void {
  const { location } = env;
  leavingPage = true;
  const current = location.pathname + location.search;
  if (current + location.hash === path) return location.reload();
  if (replace) location.replace(path);
  else location.assign(path);
  // Only the hash differs: assign() scrolled within the page; load the document for real.
  if (path.startsWith(`${current}#`)) location.reload();
}
