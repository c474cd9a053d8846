/** An error the API answers as `{ statusCode, code, message, fields? }`. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const errorResponseSchema = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string' },
    message: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['statusCode', 'code', 'message'],
} as const;

/**
 * The 404 messages, made here only: the spec's page 404 (nothing to show; rendered inside the
 * layout, JSON for payloads), its fatal one (a route's `validate` failed: the error screen), and
 * the JSON 404 of every other address (the API, /builds/, anything the pages do not take).
 */
export const notFoundMessages = {
  page: (path: string) => `Page not found: ${path}`,
  fatalPage: (path: string) => `Page Not Found: ${path}`,
  other: (path: string) => `Not found: ${path}`,
} as const;

/** The JSON 404 `{ statusCode: 404, code: 'NOT_FOUND', message: 'Not found: {path}' }`. */
export function notFoundError(path: string, headers?: Record<string, string>): HttpError {
  return new HttpError(404, 'NOT_FOUND', notFoundMessages.other(path), undefined, headers);
}
