import type { FetchOptions, FetchRequest } from 'ofetch';
import type * as ApiClient from './api-client.ts';

/** The API client, loaded with the first call: most page views never call the API (decision 0019). */
export type ApiCall = <T = unknown>(request: FetchRequest, options?: FetchOptions<'json'>) => Promise<T>;

type ApiClientModule = typeof ApiClient;

let client: Promise<ApiClientModule> | undefined;

/** The client's module (ofetch): navigation code takes its page payloads and form posts from it. */
export function loadApiClient(): Promise<ApiClientModule> {
  client ??= import('./api-client.ts');
  // A chunk that failed to load is asked for again next time (a deploy, a dropped connection).
  client.catch(() => {
    client = undefined;
  });
  return client;
}

export const api: ApiCall = (request, options) =>
  loadApiClient().then((module) => (module.api as ApiCall)(request, options));
