import { notFoundMessages } from '../../contract/http-error.ts';
import { data, isRouteErrorResponse } from 'react-router';

/** What every error screen and error JSON shows: the spec's status code and message. */
export interface PageErrorInfo {
  statusCode: number;
  message: string;
  /** Fatal errors replace the whole page with the error screen; others render inside the layout. */
  fatal: boolean;
  /** An unexpected failure (a bug or an outage), as opposed to a page that does not exist. */
  unhandled?: boolean;
  /** Only in development. */
  stack?: string;
}

/** Throw from a loader: react-router carries it to the route's error boundary (and into hydration data). */
export function pageError(
  statusCode: number,
  message: string,
  options: Partial<Pick<PageErrorInfo, 'fatal' | 'unhandled' | 'stack'>> = {},
): never {
  const { fatal = false, ...rest } = options;
  const info: PageErrorInfo = { statusCode, message, fatal, ...rest };
  throw data(info, { status: statusCode });
}

/** `validate` failed: the spec's fatal 404. */
export function validationFailed(path: string): never {
  return pageError(404, notFoundMessages.fatalPage(path), { fatal: true });
}

/** Nothing to show at this path: the spec's non-fatal 404. */
export function notFound(path: string): never {
  return pageError(404, notFoundMessages.page(path));
}

function isPageErrorInfo(value: unknown): value is PageErrorInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PageErrorInfo).statusCode === 'number' &&
    typeof (value as PageErrorInfo).message === 'string'
  );
}

/** Normalises anything a loader or a component threw into what the error screen shows. */
export function toPageErrorInfo(error: unknown, { exposeDetails }: { exposeDetails: boolean }): PageErrorInfo {
  if (isRouteErrorResponse(error)) {
    if (isPageErrorInfo(error.data)) return error.data;
    return {
      statusCode: error.status,
      message: error.statusText || String(error.data ?? ''),
      fatal: error.status >= 500,
    };
  }
  if (isPageErrorInfo(error)) return error;
  const failure = error instanceof Error ? error : new Error(String(error));
  return {
    statusCode: 500,
    message: exposeDetails ? failure.message : 'Internal Server Error',
    fatal: true,
    unhandled: true,
    ...(exposeDetails && failure.stack ? { stack: failure.stack } : {}),
  };
}
