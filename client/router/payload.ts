import { notFoundMessages } from '../../contract/http-error.ts';
import { redirect } from 'react-router';
import { loadApiClient } from '../lib/api.ts';
import { FRESH_MS, rootCache, type Dated } from '../lib/swr-config.ts';
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

/**
 * What SWR's cache holds under a page's `_payload.json` address: the data last answered and when
 * (what `useLivePageData` shows), and the request in flight, which everyone asking for it joins.
 */
export interface PageEntry extends Dated<unknown> {
  asking?: Promise<PayloadAnswer>;
}

const entryOf = (key: string) => rootCache()?.cache.get(key)?.data as PageEntry | undefined;

const isFresh = (entry: PageEntry | undefined) => entry?.data !== undefined && Date.now() - entry.at < FRESH_MS;

function write(key: string, entry: PageEntry | undefined): void {
  void rootCache()?.mutate(key, entry, { revalidate: false });
}

async function request(key: string): Promise<PayloadAnswer> {
  const response = await (await loadApiClient()).getPayload(payloadFetchUrl(key));
  const body = response._data;
  return { ok: response.ok, status: response.status, body: typeof body === 'object' ? body : null };
}

/**
 * The answer for a payload address (`key`) from SWR's cache: the request in flight, or data fresh
 * for FRESH_MS, else one new request. Only data is kept: errors and redirects ask again next time.
 */
function pageAnswer(key: string): Promise<PayloadAnswer> {
  const entry = entryOf(key);
  if (entry?.asking) return entry.asking;
  if (isFresh(entry)) return Promise.resolve({ ok: true, status: 200, body: { data: entry!.data } });
  const kept: PageEntry = { data: entry?.data, at: entry?.at ?? 0 };
  const asking = request(key);
  write(key, { ...kept, asking });
  const settle = (answer?: PayloadAnswer) => {
    if (entryOf(key)?.asking !== asking) return;
    const data = answer?.ok ? answer.body?.data : undefined;
    write(key, data === undefined ? kept : { data, at: Date.now() });
  };
  asking.then(settle, () => settle());
  return asking;
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

/** Nothing to do when SWR's cache has the page or is asking for it, now or once a slot frees. */
export function prefetchPayload(pathname: string, run: SlotRunner): Promise<void> {
  const key = payloadUrl(pathname);
  const known = () => entryOf(key)?.asking !== undefined || isFresh(entryOf(key));
  if (known()) return Promise.resolve();
  return run(async () => {
    if (!known()) await pageAnswer(key);
  }).catch(() => undefined);
}

/** A form's success may change what any page shows: the next load of each asks the server. */
export function forgetPageData(): void {
  const keys = [...(rootCache()?.cache.keys() ?? [])];
  for (const key of keys) if (key.endsWith('/_payload.json')) write(key, undefined);
}
