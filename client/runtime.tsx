import { createContext, useContext } from 'react';
import type { Locale } from '../contract/locales.ts';
import type { IconDataMap } from './lib/icon-loader.ts';

/** Facts about this page view that the server and the browser agree on (sent in the HTML). */
export interface AppRuntime {
  buildId: string;
  dev: boolean;
  /** The user agent is a crawler: error pages are never swapped in for it. */
  isBot: boolean;
  /** True for errors that the server already rendered (they arrived in the hydration data). */
  isServerError: (error: unknown) => boolean;
  buildCheckIntervalMs: number;
  allowedExternalOrigins: string[];
  /** The site's public origin, for canonical links written after client navigation. */
  publicUrl: string;
  /** A one-shot message for this page view (client/lib/flash.ts), from the server's `flash` cookie. */
  flash?: string;
}

/** The JSON the server writes into each page for the browser (`window.__ASDAS__`). */
export interface RuntimeSnapshot {
  buildId: string;
  dev: boolean;
  /** Only on an error page, drawn by it; otherwise the browser tells (client/lib/bot-visitor.ts). */
  isBot?: boolean;
  locale: Locale;
  buildCheckIntervalMs: number;
  allowedExternalOrigins: string[];
  publicUrl: string;
  /** Set when the server could not render the page at all: the browser shows the error screen. */
  renderError?: { statusCode: number; message: string };
  /** The icons of contract/app-icons.ts, as the server rendered them: hydration draws the same SVG. */
  icons?: IconDataMap;
  /** Where the browser asks for icons when our endpoint fails (the CSP allows this origin). */
  iconFallbackUrl?: string;
  /** A one-shot message for this page view, read once from the `flash` cookie. */
  flash?: string;
  /** A refused address's framed error: plain HTML, no hydration (its URL is none the router reads). */
  static?: true;
}

export const RuntimeContext = createContext<AppRuntime>({
  buildId: 'unknown',
  dev: false,
  isBot: false,
  isServerError: () => true,
  buildCheckIntervalMs: 3600000,
  allowedExternalOrigins: [],
  publicUrl: '',
});

export function useRuntime(): AppRuntime {
  return useContext(RuntimeContext);
}
