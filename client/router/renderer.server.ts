import type { Locale } from '../../contract/locales.ts';
import type { RenderedPage, RenderState } from '../../contract/render-state.ts';
import type { IconDataMap } from '../lib/icon-loader.ts';

// What the server (plugins/external/ssr.ts) gives the renderer (client/entry.server.tsx) once, and asks of it per page.

/** What never changes while the server runs: everything derived from it is computed once too. */
export interface RendererSite {
  dev: boolean;
  buildId: string;
  buildCheckIntervalMs: number;
  allowedExternalOrigins: string[];
  publicUrl: string;
  /** `<link rel="preload">` of each language's font (lib/page-fonts.ts), written before the head tags. */
  fontPreloads?: Partial<Record<Locale, string>>;
  /** The icons of contract/app-icons.ts, resolved once at start (plugins/external/ssr.ts): rendered inline. */
  icons?: IconDataMap;
  /** The browser's fallback when our icon endpoint fails. */
  iconFallbackUrl?: string;
  /** Signed-in visitors' copies of shared pages are drawn from a shell kept per page (off with the page cache). */
  shareRenders?: boolean;
}

/** Turns what the server decided into HTML: no data, no callbacks, no request. */
export interface Renderer {
  render(state: RenderState): Promise<RenderedPage>;
}
