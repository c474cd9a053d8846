import { splitLocale, type Locale } from '../../contract/locales.ts';
import { isPageNotFound, type PageDataArgs, type PublicUser } from '../../contract/page-data.ts';
import {
  displayPath,
  notFoundError,
  renderErrorLog,
  unexpectedError,
  type PageErrorInfo,
} from '../../contract/page-error.ts';
import { runPageSteps } from '../../contract/page-steps.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { isDatabaseFault } from '../db/unavailable.ts';

/** The page Fastify's router matched (its route's config) and the params it read from the path. */
export interface PageTarget {
  route: PageRoute;
  locale: Locale;
  params: Readonly<Record<string, string | undefined>>;
}

export interface PipelineParts {
  user: PublicUser | null;
  sessionId: string | null;
  /** The page's loader (its `client/pages/<name>.server.ts`). */
  loadData(route: PageRoute, args: PageDataArgs): unknown;
  logError(error: unknown, message: string): void;
  /** Development shows a failure's message and stack. */
  exposeDetails: boolean;
}

/** What a page request comes to before anything renders: plain values, never a throw. */
export type PageOutcome =
  | { type: 'redirect'; location: string; permanent?: boolean }
  | { type: 'page'; target: PageTarget; status: number; data: unknown }
  | { type: 'error'; target: PageTarget; status: number; error: PageErrorInfo };

const errorOutcome = (target: PageTarget, error: PageErrorInfo): PageOutcome => ({
  type: 'error',
  target,
  status: error.statusCode,
  error,
});

/**
 * A page request (document, `_payload.json` or the page after a form): the page's steps and data.
 * A database outage or a full disk propagates (503); any other failure is logged and is a 500.
 */
export async function loadPage(target: PageTarget, url: URL, parts: PipelineParts): Promise<PageOutcome> {
  const { route, locale, params } = target;
  try {
    const outcome = await runPageSteps({ route, locale, params, url, user: parts.user }, async () =>
      parts.loadData(route, {
        locale,
        params,
        path: splitLocale(url.pathname).path,
        user: parts.user,
        sessionId: parts.sessionId,
      }),
    );
    if (outcome.type === 'redirect') return outcome;
    if (outcome.type === 'error') return errorOutcome(target, outcome.error);
    return { type: 'page', target, status: 200, data: outcome.data };
  } catch (error) {
    if (isPageNotFound(error)) return errorOutcome(target, notFoundError(displayPath(url)));
    if (isDatabaseFault(error)) throw error;
    parts.logError(error, renderErrorLog);
    return errorOutcome(target, unexpectedError(error, parts.exposeDetails));
  }
}
