import type { Locale } from '../../contract/locales.ts';
import type { DataSourceKey } from '../../contract/data-sources.ts';
import type { FormActionArgs, FormActionResult, PageDataSource, PublicUser } from '../../contract/page-data.ts';
import type { IconDataMap } from '../lib/icon-loader.ts';
import type { PageErrorInfo } from './page-error.ts';

// What the server (plugins/ssr.ts) and the renderer (client/entry-server.tsx) say to each other.

/** What never changes while the server runs: everything derived from it is computed once too. */
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
  /** The browser's fallback when our icon endpoint fails. */
  iconFallbackUrl?: string;
  dataSource: (name: DataSourceKey) => PageDataSource;
}

/** What the server knows about one request: who asks, and the two things only it can do. */
export interface ServerRequestContext {
  user: PublicUser | null;
  sessionId?: string | null;
  isBot: boolean;
  /** A one-shot message for this page (the `flash` cookie, already cleared): client/lib/flash.ts. */
  flash?: string;
  /** Runs a named form action for a form posted without JavaScript (may set cookies). */
  runFormAction: (name: string, args: FormActionArgs) => Promise<FormActionResult>;
  logError: (error: unknown, message: string) => void;
}

export interface Renderer {
  /** `form`: the urlencoded body of a form posted without JavaScript. */
  renderDocument(url: string, request: ServerRequestContext, options?: { form?: string }): Promise<DocumentOutcome>;
  /** `{path}/_payload.json`: exactly what the page's loader returns, plus the build id. */
  loadPayload(pathname: string, request: ServerRequestContext): Promise<PayloadOutcome>;
}

export type DocumentOutcome =
  /** `external`: an absolute URL a form action chose (the server checks its origin). */
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
  body:
    { buildId: string; data: unknown } | { redirect: string } | { statusCode: number; message: string; fatal: boolean };
}
