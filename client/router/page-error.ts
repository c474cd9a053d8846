import { data, isRouteErrorResponse } from 'react-router';
import { unexpectedError, type PageErrorInfo } from '../../contract/page-error.ts';

export type { PageErrorInfo } from '../../contract/page-error.ts';

/** Throw from a loader: react-router carries it to the route's error boundary. */
export function pageError(
  statusCode: number,
  message: string,
  options: Partial<Pick<PageErrorInfo, 'fatal' | 'unhandled' | 'stack'>> = {},
): never {
  const { fatal = false, unhandled, stack } = options;
  const info: PageErrorInfo = {
    statusCode,
    message,
    fatal,
    ...(unhandled === undefined ? {} : { unhandled }),
    ...(stack === undefined ? {} : { stack }),
  };
  throw data(info, { status: statusCode });
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
  return unexpectedError(error, exposeDetails);
}

/** Not found, whatever the cause (no page, no such article, a refused slug): one framed 404 page. */
export const isNotFound = (info: PageErrorInfo): boolean => info.statusCode === 404;

/** The translated words for an error of this status: a missing page, another refusal, or our failure. */
export function errorTextKeys(statusCode: number): { title: string; heading: string; explanation: string } {
  if (statusCode === 404)
    return { title: 'error.notFoundTitle', heading: 'error.notFoundHeading', explanation: 'error.notFoundExplanation' };
  if (statusCode >= 400 && statusCode < 500)
    return { title: 'error.badRequestTitle', heading: 'error.badRequestHeading', explanation: 'error.hint' };
  return { title: 'error.title', heading: 'error.heading', explanation: 'error.serverHint' };
}
