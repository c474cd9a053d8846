import type { FormState } from './page-data.ts';

/**
 * An error answer (`{ code, fields? }`, the API's shape) as the form shows it: field errors beside
 * their fields, otherwise the code as the form's message. The one mapping, used by the server's form
 * actions and by the browser for answers that never reached one (no network, 429, 503).
 */
export function formStateFrom(body: unknown, values: Record<string, string>): FormState {
  const { code, fields } = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: unknown;
    fields?: unknown;
  };
  if (typeof fields === 'object' && fields !== null) {
    const errors = Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === 'string'));
    return { values, errors };
  }
  return { values, errors: {}, message: typeof code === 'string' ? code : 'NETWORK' };
}

/** What a form may send back after an error: never a password or a token. */
export function keptValues(
  fields: Iterable<[string, unknown]>,
  except: readonly string[] = [],
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of fields) {
    if (typeof value === 'string' && !/password|token/i.test(name) && !except.includes(name)) values[name] = value;
  }
  return values;
}
