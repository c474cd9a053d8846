import { redirect, type Params } from 'react-router';
import { dataStep, stepsBeforeData, type PageStepsInput, type PageStepsOutcome } from '../../contract/page-steps.ts';
import type { PageRoute } from '../../contract/routes.ts';
import { pageError } from './page-error.ts';

/** A redirect or an error as react-router's throws; the data otherwise. */
function settle(outcome: PageStepsOutcome): unknown {
  if (outcome.type === 'redirect') throw redirect(outcome.location);
  if (outcome.type === 'error') pageError(outcome.error.statusCode, outcome.error.message, outcome.error);
  return outcome.data;
}

/** A page's react-router middleware: the server's steps before the data (contract/page-steps.ts). */
export function checkPage(input: PageStepsInput): void {
  const outcome = stepsBeforeData(input);
  if (outcome) settle(outcome);
}

export interface PageLoadInput {
  route: PageRoute;
  params: Params;
  url: URL;
  /** Fetches the page's data (`_payload.json`). */
  fetchData: () => Promise<unknown>;
}

/** A client navigation's loader, after `checkPage`: the page's data, or its error. */
export async function loadPage({ route, url, fetchData }: PageLoadInput): Promise<unknown> {
  return settle(await dataStep(route, url, fetchData));
}
