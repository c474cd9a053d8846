import { notFoundMessages } from './http-error.ts';

/** What every error screen and error JSON shows: the spec's status code and message. */
export interface PageErrorInfo {
  statusCode: number;
  message: string;
  /** Fatal errors replace the whole page with the error screen; others render inside the layout. */
  fatal: boolean;
  /** An unexpected failure (a bug or an outage), as opposed to a page that does not exist. */
  unhandled?: boolean;
  stack?: string; // development only
  /** The detail line in the reader's language (`error.details.<key>`), where the message is ours, not the spec's. */
  detail?: { key: ErrorDetailKey; values?: Record<string, string> };
}

export type ErrorDetailKey = 'malformedPath' | 'pathTooLong' | 'badPageNumber';

/** Logged, on both sides, when a page fails to load or render (the spec's message). */
export const renderErrorLog = 'Произошла ошибка';

/** The path as the spec's messages show it: decoded, with its query. */
export function displayPath(url: URL): string {
  const path = url.pathname + url.search;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** `validate` failed: the spec's fatal 404. */
export const validationFailedError = (path: string): PageErrorInfo => ({
  statusCode: 404,
  message: notFoundMessages.fatalPage(path),
  fatal: true,
});

/** Nothing to show at this path: the spec's non-fatal 404. */
export const notFoundError = (path: string): PageErrorInfo => ({
  statusCode: 404,
  message: notFoundMessages.page(path),
  fatal: false,
});

/** Anything else a page threw (a bug, a broken data source): 500, with details only in development. */
export function unexpectedError(error: unknown, exposeDetails: boolean): PageErrorInfo {
  const failure = error instanceof Error ? error : new Error(String(error));
  return {
    statusCode: 500,
    message: exposeDetails ? failure.message : 'Internal Server Error',
    fatal: true,
    unhandled: true,
    ...(exposeDetails && failure.stack ? { stack: failure.stack } : {}),
  };
}
