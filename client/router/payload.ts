import { notFoundMessages } from '../../contract/http-error.ts';
import { redirect } from 'react-router';
import { pageError } from './page-error.ts';
import { payloadKey, payloadUrl } from './payload-url.ts';

// The address alone is in the first load (the account page's live data asks it of SWR, client/hooks.ts);
// the cache below is navigation code (vite.config.ts).
export { payloadUrl } from './payload-url.ts';

interface PayloadBody {
  buildId?: string;
  data?: unknown;
  redirect?: string;
  statusCode?: number;
  message?: string;
  fatal?: boolean;
}

interface PayloadResult {
  ok: boolean;
  status: number;
  body: PayloadBody | null;
}

/** How long a prefetched payload (or the one just shown) may stand in for a new request. */
export const payloadFreshMs = 5000;

interface CacheEntry {
  result: Promise<PayloadResult>;
  /** Unset while the request is in flight. */
  settledAt?: number;
}

/** Prefetched payloads by page path: each is used once, or dropped after `payloadFreshMs`. */
const prefetched = new Map<string, CacheEntry>();
const queued = new Set<string>();
/**
 * A navigation's own request (no prefetch was there to use), by page path, while in flight: a
 * prefetch of the same page (queued behind others, or asked by the focus a click gives) waits for
 * it to end rather than asking again. Without it a click on a link whose prefetch was still queued
 * fetched the payload twice.
 */
const navigating = new Map<string, Promise<PayloadResult>>();
/** The payload the router used last: a query-only change of the same page reuses it. */
let lastUsed: { key: string; result: PayloadResult; at: number } | undefined;

const now = () => Date.now();

function isFresh(entry: CacheEntry | undefined): entry is CacheEntry {
  return entry !== undefined && (entry.settledAt === undefined || now() - entry.settledAt < payloadFreshMs);
}

async function request(pathname: string, signal?: AbortSignal): Promise<PayloadResult> {
  const response = await fetch(payloadUrl(pathname), {
    ...(signal ? { signal } : {}),
    headers: { accept: 'application/json' },
  });
  const body = (await response.json().catch(() => null)) as PayloadBody | null;
  return { ok: response.ok, status: response.status, body };
}

/** Waits for a request someone else started, but gives up when this navigation is cancelled. */
function unlessAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function readResult(result: PayloadResult, pathname: string): unknown {
  const { body } = result;
  if (!result.ok || body === null) {
    pageError(body?.statusCode ?? result.status, body?.message ?? notFoundMessages.page(pathname), {
      fatal: body?.fatal ?? result.status >= 500,
    });
  }
  if (body.redirect) throw redirect(body.redirect);
  return body.data;
}

/** A prefetched payload, in flight or fresh, stands in for a new request: one fetch per navigation. */
export async function fetchPayload(pathname: string, signal?: AbortSignal): Promise<unknown> {
  const key = payloadKey(pathname);
  const entry = prefetched.get(key);
  prefetched.delete(key);
  let result: PayloadResult;
  if (isFresh(entry)) {
    try {
      result = await unlessAborted(entry.result, signal);
    } catch (error) {
      // This navigation was cancelled: the prefetched answer stays for the next one.
      if (signal?.aborted && !prefetched.has(key)) prefetched.set(key, entry);
      throw error;
    }
  } else if (lastUsed?.key === key && now() - lastUsed.at < payloadFreshMs) {
    result = lastUsed.result;
  } else {
    const pending = request(pathname, signal);
    navigating.set(key, pending);
    try {
      result = await pending;
    } finally {
      if (navigating.get(key) === pending) navigating.delete(key);
    }
  }
  // Only a good answer stands in for the next request: trying a failed page again asks again.
  lastUsed = result.ok ? { key, result, at: now() } : undefined;
  return readResult(result, pathname);
}

export type SlotRunner = <T>(task: () => Promise<T>) => Promise<T>;

/** A failed answer is not kept: only a navigation already waiting on it reads it. */
export function prefetchPayload(pathname: string, run: SlotRunner): Promise<void> {
  const key = payloadKey(pathname);
  for (const [path, entry] of prefetched) if (!isFresh(entry)) prefetched.delete(path);
  if (queued.has(key) || prefetched.has(key) || navigating.has(key)) return Promise.resolve();
  queued.add(key);
  return run(async () => {
    queued.delete(key);
    if (
      navigating.has(key) ||
      isFresh(prefetched.get(key)) ||
      (lastUsed?.key === key && now() - lastUsed.at < payloadFreshMs)
    )
      return;
    const entry: CacheEntry = { result: request(pathname) };
    prefetched.set(key, entry);
    const drop = () => {
      if (prefetched.get(key) === entry) prefetched.delete(key);
    };
    try {
      const result = await entry.result;
      entry.settledAt = now();
      if (!result.ok) drop();
    } catch {
      drop();
    }
  }).catch(() => {
    queued.delete(key);
  });
}

/** For tests. */
export function clearPayloadCache(): void {
  prefetched.clear();
  queued.clear();
  navigating.clear();
  lastUsed = undefined;
}
