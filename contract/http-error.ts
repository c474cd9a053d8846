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

/** `page`: inside the layout; `fatalPage`: a route's `validate` failed, the error screen; `other`: JSON. */
export const notFoundMessages = {
  page: (path: string) => `Page not found: ${path}`,
  fatalPage: (path: string) => `Page Not Found: ${path}`,
  other: (path: string) => `Not found: ${path}`,
} as const;

export function notFoundError(path: string, headers?: Record<string, string>): HttpError {
  return new HttpError(404, 'NOT_FOUND', notFoundMessages.other(path), undefined, headers);
}
