/**
 * The browser's API client (ofetch): the token read before every attempt, sent only to our API.
 * ofetch applies a numeric `retry` to every method, so the per-method count is set in `onRequest`.
 */
import { ofetch, type $Fetch, type FetchContext, type FetchOptions, type FetchRequest } from 'ofetch';
import { browserToken } from './cookies.ts';

export { readCookie, TOKEN_COOKIE } from './cookies.ts';

export const API_BASE = '/api';
export const RETRY_STATUS_CODES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];
const MUTATING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const RETRIES_SAFE_METHOD = 1;
const RETRIES_MUTATING_METHOD = 0;
const RETRY_DELAY_MS = 0;

export function retriesFor(method: string | undefined): number {
  return MUTATING_METHODS.has((method ?? 'GET').toUpperCase()) ? RETRIES_MUTATING_METHOD : RETRIES_SAFE_METHOD;
}

// Visible ASCII without spaces; anything else is not a safe header value.
const TOKEN_RE = /^[\x21-\x7e]+$/;

const OWN_AUTH = '__asdasBearerFromToken';

const SCHEME_OR_PROTOCOL_RELATIVE = /^\s*(?:[a-z][a-z\d+.-]*:|[/\\]{2})/i;

function currentOrigin(): string | undefined {
  try {
    return typeof location === 'undefined' ? undefined : location.origin;
  } catch {
    return undefined;
  }
}

export function isOwnApiRequest(request: FetchRequest, baseURL: string, origin = currentOrigin()): boolean {
  const url = typeof request === 'string' ? request : request instanceof URL ? request.href : request.url;
  if (!SCHEME_OR_PROTOCOL_RELATIVE.test(url)) return true; // relative: joined with our base
  try {
    const apiOrigin = SCHEME_OR_PROTOCOL_RELATIVE.test(baseURL)
      ? new URL(baseURL, origin).origin
      : origin && new URL(origin).origin;
    if (!apiOrigin) return false;
    return new URL(url, apiOrigin).origin === apiOrigin;
  } catch {
    return false;
  }
}

export interface ApiClientOptions {
  /** `/api`, or an absolute URL (tests). */
  baseURL?: string;
  /** Called before every attempt, retries included. */
  getToken?: () => string | null | undefined;
  fetch?: typeof globalThis.fetch;
}

export type ApiClient = $Fetch;

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseURL = options.baseURL ?? API_BASE;
  const getToken = options.getToken ?? browserToken;

  const onRequest = (context: FetchContext) => {
    const opts = context.options as FetchContext['options'] & { [OWN_AUTH]?: boolean };
    if (opts.retry === undefined) opts.retry = retriesFor(opts.method);
    // A caller's own Authorization header is kept; ours (marked, and copied by ofetch into the
    // retry's options) is refreshed before every attempt.
    if (opts.headers.has('authorization') && !opts[OWN_AUTH]) return;
    if (!isOwnApiRequest(context.request, baseURL)) return;
    let token: string | null | undefined;
    try {
      token = getToken();
    } catch {
      token = undefined;
    }
    if (token && TOKEN_RE.test(token)) {
      opts.headers.set('authorization', `Bearer ${token}`);
      opts[OWN_AUTH] = true;
    } else if (opts[OWN_AUTH]) {
      opts.headers.delete('authorization');
      opts[OWN_AUTH] = false;
    }
  };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any request options of ofetch's, whatever their response type
  const withOurHooks = <O extends FetchOptions<any, any> | undefined>(opts: O): O => {
    // ofetch replaces (does not merge) a default hook with the caller's; keep ours first.
    if (!opts?.onRequest) return opts;
    const theirs = Array.isArray(opts.onRequest) ? opts.onRequest : [opts.onRequest];
    return { ...opts, onRequest: [onRequest, ...theirs] };
  };

  const base = ofetch.create(
    {
      baseURL,
      retryStatusCodes: [...RETRY_STATUS_CODES],
      retryDelay: RETRY_DELAY_MS,
      onRequest,
    },
    options.fetch ? { fetch: options.fetch } : {},
  );

  const client = ((request, opts) => base(request, withOurHooks(opts))) as ApiClient;
  client.raw = (request, opts) => base.raw(request, withOurHooks(opts));
  client.native = base.native;
  client.create = (defaults, globalOptions) => base.create(withOurHooks(defaults), globalOptions);
  return client;
}

export const api: ApiClient = createApiClient({ baseURL: API_BASE, getToken: browserToken });

/** A page's `_payload.json`, whatever its status (a page error is a body too); never aborted, as others may wait for it. */
export function getPayload(url: string) {
  return ofetch.raw<unknown>(url, { headers: { accept: 'application/json' }, ignoreResponseError: true });
}

/** A page's form posted to its own address, asking for the outcome as JSON; never retried. */
export function postPageForm(url: string, body: URLSearchParams, signal?: AbortSignal) {
  return ofetch.raw<unknown>(url, {
    method: 'POST',
    body,
    headers: { accept: 'application/json' },
    retry: 0,
    ignoreResponseError: true,
    ...(signal ? { signal } : {}),
  });
}
