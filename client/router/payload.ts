import { notFoundMessages } from '../../contract/http-error.ts';
import { redirect } from 'react-router';
import { loadApiClient } from '../lib/api.ts';
import { appRouter } from '../lib/app-router.ts';
import { FRESH_MS } from '../lib/swr-config.ts';
import { pageError } from './page-error.ts';
import { payloadFetchUrl, payloadUrl } from './payload-url.ts';
import { followPageRedirect, redirectedWhileSignedIn } from './signed-out.ts';

export { payloadUrl } from './payload-url.ts';

interface PayloadBody {
  buildId?: string;
  data?: unknown;
  redirect?: string;
  statusCode?: number;
  message?: string;
  fatal?: boolean;
}

interface PayloadAnswer {
  ok: boolean;
  status: number;
  body: PayloadBody | null;
}

/** An answer asked for (`at` unset) or answered with data at `at`: what loaders, prefetch and SWR's live hook share. */
interface Kept {
  answer: Promise<PayloadAnswer>;
  at?: number;
}

// Answers live FRESH_MS, so a prefetch serves the click after it and requests in flight are joined;
// past that the router's loader data is the page's one copy.
const answers = new Map<string, Kept>();

const usable = (kept: Kept | undefined): kept is Kept =>
  kept !== undefined && (kept.at === undefined || Date.now() - kept.at < FRESH_MS);

async function request(key: string): Promise<PayloadAnswer> {
  const response = await (await loadApiClient()).getPayload(payloadFetchUrl(key));
  const body = response._data;
  return { ok: response.ok, status: response.status, body: typeof body === 'object' ? body : null };
}

/** The answer for a payload address (`key`): the one in flight or fresh, else a new request. Errors and redirects are not kept. */
function pageAnswer(key: string): Promise<PayloadAnswer> {
  const known = answers.get(key);
  if (usable(known)) return known.answer;
  for (const [old, kept] of answers) if (!usable(kept)) answers.delete(old);
  const kept: Kept = { answer: request(key) };
  answers.set(key, kept);
  const settle = (answer?: PayloadAnswer) => {
    if (answers.get(key) !== kept) return;
    if (answer?.ok && answer.body?.data !== undefined) kept.at = Date.now();
    else answers.delete(key);
  };
  kept.answer.then(settle, () => settle());
  return kept.answer;
}

// The page the document brought (no loader ran) counts as an answer from when this code arrives,
// right after hydration: a link back to it within FRESH_MS asks nothing.
const shown = appRouter()?.state;
const shownData: unknown = shown?.loaderData[shown.matches.at(-1)?.route.id ?? ''];
if (shown && shownData !== undefined) {
  const answer = Promise.resolve<PayloadAnswer>({ ok: true, status: 200, body: { data: shownData } });
  answers.set(payloadUrl(shown.location.pathname), { answer, at: Date.now() });
}

/** Waits for a request others may share, but gives up when this navigation is cancelled. */
function unlessAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A navigation's loader: the page's data, or its redirect or error as react-router's throws. */
export async function fetchPayload(pathname: string, signal?: AbortSignal): Promise<unknown> {
  const { ok, status, body } = await unlessAborted(pageAnswer(payloadUrl(pathname)), signal);
  if (!ok || body === null) {
    pageError(body?.statusCode ?? status, body?.message ?? notFoundMessages.page(pathname), {
      fatal: body?.fatal ?? status >= 500,
    });
  }
  if (body.redirect) {
    redirectedWhileSignedIn(body.redirect);
    throw redirect(body.redirect);
  }
  return body.data;
}

/** SWR's fetcher for a page's live data: a redirect (signed out) takes the page there, a 4xx to SWR. */
export async function pageData(key: string): Promise<unknown> {
  const { ok, status, body } = await pageAnswer(key);
  if (ok && body?.data !== undefined) return body.data;
  if (ok && body?.redirect) followPageRedirect(key, body.redirect);
  throw Object.assign(new Error(`No page data at ${key}`), { statusCode: ok ? 401 : status });
}

export type SlotRunner = <T>(task: () => Promise<T>) => Promise<T>;

/** Nothing to do when an answer for the page is fresh or on its way, now or once a slot frees. */
export function prefetchPayload(pathname: string, run: SlotRunner): Promise<void> {
  const key = payloadUrl(pathname);
  const known = () => usable(answers.get(key));
  if (known()) return Promise.resolve();
  return run(async () => {
    if (!known()) await pageAnswer(key);
  }).catch(() => undefined);
}

/** A form's success may change what any page shows: the next load of each asks the server. */
export function forgetPageData(): void {
  answers.clear();
}
