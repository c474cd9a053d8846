import type { FormState } from '../../contract/page-data.ts';

interface ApiErrorBody {
  code?: unknown;
  fields?: unknown;
}

/** Turns a failed API call into what the form shows: the typed values and error codes. */
export function formStateFromError(error: unknown, values: Record<string, string>): FormState {
  const body = (error as { data?: ApiErrorBody } | null)?.data;
  const status = (error as { statusCode?: number } | null)?.statusCode;
  if (!body || typeof body !== 'object' || status === undefined) return { values, errors: {}, message: 'NETWORK' };
  const fields =
    body.fields && typeof body.fields === 'object'
      ? Object.fromEntries(Object.entries(body.fields).filter(([, code]) => typeof code === 'string'))
      : {};
  return {
    values,
    errors: fields,
    message: typeof body.code === 'string' && Object.keys(fields).length === 0 ? body.code : undefined,
  };
}
