import { notFoundMessages } from '../../contract/http-error.ts';
import { redirect } from 'react-router';
import { pageError } from './page-error.ts';

/** `/asdas/x` → `/asdas/x/_payload.json`; `/` → `/_payload.json`. */
export function payloadUrl(pathname: string): string {
  return `${payloadKey(pathname).replace(/\/$/, '')}/_payload.json`;
}

/** A page's path as the payload cache knows it: no trailing slash (except `/` itself). */
function payloadKey(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

interface PayloadBody {
  buildId?: string;
  data?: unknown;
  redirect?: string;
  statusCode?: number;
  message?: string;
  fatal?: boolean;
}

/** One answer of `{path}/_payload.json`, kept as received so it can be read later. */
interface PayloadResult {
  ok: boolean;
  status: number;
  body: PayloadBody | null;
}

/** How long a prefetched payload (or the one just shown) may stand in for a new request. */
export const payloadFreshMs = 5000;

interface CacheEntry {
  result: Promise<PayloadResult>;
  /** When the answer arrived; unset while the request is in flight. */
  settledAt?: number;
}

/** Prefetched payloads by page path: each is used once, or dropped after `payloadFreshMs`. */
const prefetched = new Map<string, CacheEntry>();
/** Prefetches waiting for a free slot, so a path is queued once. */
const queued = new Set<string>();
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

/**
 * A page's data for client navigation: what its loader returned on the server. A prefetched
 * payload (in flight or fresh) is used instead of a new request, so one navigation fetches a
 * page's payload at most once; a query-only change of the page just shown reuses its payload.
 */
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
    result = await request(pathname, signal);
  }
  // Only a good answer stands in for the next request: trying a failed page again asks again.
  lastUsed = result.ok ? { key, result, at: now() } : undefined;
  return readResult(result, pathname);
}

/** Runs a task when a prefetch slot is free (client/lib/concurrency.ts). */
export type SlotRunner = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Fetches a page's payload ahead of a likely navigation, through `run` (the shared limit of
 * prefetches). Does nothing when a fresh copy is already cached, queued or just used. A failed
 * or non-2xx answer is not kept for later (only a navigation already waiting on it reads it).
 */
export function prefetchPayload(pathname: string, run: SlotRunner): Promise<void> {
  const key = payloadKey(pathname);
  for (const [path, entry] of prefetched) if (!isFresh(entry)) prefetched.delete(path);
  if (queued.has(key) || prefetched.has(key)) return Promise.resolve();
  queued.add(key);
  return run(async () => {
    queued.delete(key);
    if (isFresh(prefetched.get(key)) || (lastUsed?.key === key && now() - lastUsed.at < payloadFreshMs)) return;
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

/** For tests: forget every cached payload. */
export function clearPayloadCache(): void {
  prefetched.clear();
  queued.clear();
  lastUsed = undefined;
}
