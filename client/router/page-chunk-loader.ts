import type { Locale } from '../../contract/locales.ts';
import type { PageRoute } from '../../contract/routes.ts';

/**
 * How prefetch loads a page's chunk, handed in by the entry module: prefetch.ts (loaded on demand,
 * reached from every link) must not import the pages, and the entry must not wait for prefetch.ts.
 */
let load: (route: PageRoute, locale: Locale) => Promise<unknown> = async () => undefined;

export function setPageChunkLoader(loader: (route: PageRoute, locale: Locale) => Promise<unknown>): void {
  load = loader;
}

export function loadPageChunk(route: PageRoute, locale: Locale): Promise<unknown> {
  return load(route, locale);
}
