import { api } from './api.ts';

/** A page payload's answer: the data, or where a visitor no longer allowed there is sent. */
interface PayloadBody<T> {
  data?: T;
  redirect?: string;
}

/** Thrown for a payload that redirects (logged out meanwhile): SWR keeps what it shows, no retry. */
class PayloadRedirected extends Error {
  readonly statusCode = 401;
}

/** A page's `_payload.json` through the API client (its GET retry), as SWR's fetcher for page data. */
export async function fetchPageData<T>(url: string): Promise<T> {
  const body = await api<PayloadBody<T>>(url, { baseURL: '/' });
  if (body.redirect !== undefined || body.data === undefined) throw new PayloadRedirected(url);
  return body.data;
}
