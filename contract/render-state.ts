import type { FlashCode } from './flash.ts';
import type { Locale } from './locales.ts';
import type { FormState, PublicUser } from './page-data.ts';
import type { PageErrorInfo } from './page-error.ts';

/** One document as lib/pages/pipeline.ts decided it; the renderer only turns it into HTML. */
export interface RenderState {
  pathname: string;
  search: string;
  locale: Locale;
  isBot: boolean;
  user: PublicUser | null;
  /** The one-shot notice of this page (the `flash` cookie, already cleared). */
  flash?: FlashCode;
  /** The page route Fastify matched (`th:article`): the render's branch is the root, its language, it. */
  routeId: string;
  status: number;
  data?: unknown;
  action?: FormState;
  /** Shown by the language's error boundary, in the frame. */
  error?: PageErrorInfo;
  /** An address refused before any page ran: drawn in the frame at a stand-in path, never hydrated. */
  static?: true;
}

/** The renderer's answer: the document's parts, and a render failure for the server to log. */
export interface RenderedPage {
  status: number;
  head: string;
  body: string;
  hydration: string;
  error?: PageErrorInfo;
  failure?: unknown;
  /** Something the server should log (a shared page that cannot share). */
  warning?: string;
}
