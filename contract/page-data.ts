import { notFoundMessages } from './http-error.ts';
import type { Locale } from './locales.ts';

/** The logged-in user as pages and the API may show them (never secrets). */
export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
  locale: Locale;
  createdAt: string;
  /** The address was proven by a link sent to it. */
  emailVerified: boolean;
}

/** What a page's server-side data source receives. The query string is deliberately absent:
 * a page's data (and so its `_payload.json`) depends on its path only. */
export interface PageDataArgs {
  locale: Locale;
  /** Route params, e.g. `{ slug }` for `/asdas/:slug`, `{ '*': 'author/x' }` for the catch-all. */
  params: Record<string, string | undefined>;
  /** The path without its locale prefix, e.g. `/asdas/x`. */
  path: string;
  user: PublicUser | null;
  /** The session the request came with (the account page marks it in the sessions list), or null. */
  sessionId?: string | null;
}

/** A server data source: the data of one kind of page (contract/data-sources.ts), from its path and the user. */
export type PageDataSource<T = unknown> = (args: PageDataArgs) => Promise<T> | T;

/**
 * Thrown by a data source when its path has nothing to show. The renderer turns it into the
 * spec's non-fatal 404 `Page not found: {path}` (rendered inside the layout; JSON for payloads).
 */
export class PageNotFoundError extends Error {
  override name = 'PageNotFoundError';
  constructor(readonly path: string) {
    super(notFoundMessages.page(path));
  }
}

/** By name, not `instanceof`: the SSR bundle carries its own copy of this module. */
export function isPageNotFound(error: unknown): error is PageNotFoundError {
  return error instanceof Error && error.name === 'PageNotFoundError';
}

/** What a form shows after a failed submission: the typed values (never a password) and error codes. */
export interface FormState {
  values: Record<string, string>;
  /** Field name → machine code (`required`, `invalid_email` ...); pages translate them. */
  errors: Record<string, string>;
  /** A form-wide error code (`INVALID_CREDENTIALS`, `RATE_LIMITED` ...). */
  message?: string;
}

export type FormActionResult =
  /** `external`: the redirect leaves the site (Play's configured PLAY_URL); only server code sets it. */
  | { ok: true; redirect: string; external?: boolean }
  | ({ ok: false; status: number } & FormState);

export interface FormActionArgs {
  locale: Locale;
  /** The submitted fields (application/x-www-form-urlencoded), as strings. */
  fields: Record<string, string>;
  /** The `redirect` query parameter of the page, already reduced to a path of this site. */
  redirectTo: string | null;
}
