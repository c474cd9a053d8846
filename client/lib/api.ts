import type { FetchOptions, FetchRequest } from 'ofetch';

/**
 * `api(path, options)`: the site's API client (client/lib/api-client.ts: ofetch, the token,
 * retries), loaded with the first call rather than with every page. Most page views never call
 * the API (a reader logged out), so its code stays out of the first load (docs/look-and-accessibility.md, Bundle budget).
 */
export type ApiCall = <T = unknown>(request: FetchRequest, options?: FetchOptions<'json'>) => Promise<T>;

let client: Promise<ApiCall> | undefined;

/** The loaded client (the same module every caller shares). */
function loadApiClient(): Promise<ApiCall> {
  client ??= import('./api-client.ts').then((module) => module.api as ApiCall);
  // A chunk that failed to load is asked for again next time (a deploy, a dropped connection).
  client.catch(() => {
    client = undefined;
  });
  return client;
}

export const api: ApiCall = (request, options) => loadApiClient().then((call) => call(request, options));
