import { redirect, type Params } from 'react-router';
import type { Locale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { runPageSteps } from '../../contract/page-steps.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { pageError } from './page-error.ts';

export interface PageLoadInput {
  route: PageRoute;
  locale: Locale;
  params: Params;
  url: URL;
  user: PublicUser | null;
  /** Fetches the page's data (`_payload.json`). */
  fetchData: () => Promise<unknown>;
}

/** A client navigation's loader: the steps the server runs (contract/page-steps.ts), as react-router's throws. */
export async function loadPage({ fetchData, ...input }: PageLoadInput): Promise<unknown> {
  const outcome = await runPageSteps(input, fetchData);
  if (outcome.type === 'redirect') throw redirect(outcome.location);
  if (outcome.type === 'error') pageError(outcome.error.statusCode, outcome.error.message, outcome.error);
  return outcome.data;
}
