import type { FetchOptions, FetchRequest } from 'ofetch';

/** The API client, loaded with the first call: most page views never call the API (decision 0019). */
export type ApiCall = <T = unknown>(request: FetchRequest, options?: FetchOptions<'json'>) => Promise<T>;

let client: Promise<ApiCall> | undefined;

function loadApiClient(): Promise<ApiCall> {
  client ??= import('./api-client.ts').then((module) => module.api as ApiCall);
  // A chunk that failed to load is asked for again next time (a deploy, a dropped connection).
  client.catch(() => {
    client = undefined;
  });
  return client;
}

export const api: ApiCall = (request, options) => loadApiClient().then((call) => call(request, options));
