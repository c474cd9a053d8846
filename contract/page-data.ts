import type { FlashCode } from './flash.ts';
import { notFoundMessages } from './http-error.ts';
import type { Locale } from './locales.ts';

export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
  locale: Locale;
  createdAt: string;
  emailVerified: boolean;
}

/** No query string: a page's data (and so its `_payload.json`) depends on its path only. */
export interface PageDataArgs {
  locale: Locale;
  params: Readonly<Record<string, string | undefined>>;
  path: string;
  user: PublicUser | null;
  sessionId?: string | null;
}

/** A data source's "nothing here": a 404 inside the layout (JSON for payloads). */
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
  errors: Record<string, string>;
  message?: string;
}

export type FormActionResult =
  | {
      ok: true;
      redirect: string;
      /** The redirect leaves the site (Play's configured PLAY_URL); only server code sets it. */
      external?: boolean;
      /** The notice the next page shows once. */
      flash?: FlashCode;
      /** Who is signed in now, when the action changed it (null: nobody). */
      user?: PublicUser | null;
    }
  | ({ ok: false; status: number } & FormState);

export interface FormActionArgs {
  locale: Locale;
  fields: Record<string, string>;
  /** Already reduced to a path of this site. */
  redirectTo: string | null;
}
