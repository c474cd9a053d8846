import { redirect } from 'react-router';
import { pageError } from './page-error.ts';

/** `/asdas/x` → `/asdas/x/_payload.json`; `/` → `/_payload.json`. */
export function payloadUrl(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return `${trimmed}/_payload.json`;
}

interface PayloadBody {
  buildId?: string;
  data?: unknown;
  redirect?: string;
  statusCode?: number;
  message?: string;
  fatal?: boolean;
}

/** A page's data for client navigation: what its loader returned on the server. */
export async function fetchPayload(pathname: string, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(payloadUrl(pathname), { signal, headers: { accept: 'application/json' } });
  const body = (await response.json().catch(() => null)) as PayloadBody | null;
  if (!response.ok || body === null) {
    pageError(body?.statusCode ?? response.status, body?.message ?? `Page not found: ${pathname}`, {
      fatal: body?.fatal ?? response.status >= 500,
    });
  }
  if (body.redirect) throw redirect(body.redirect);
  return body.data;
}
