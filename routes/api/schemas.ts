import { errorResponseSchema } from '../../contract/http-error.ts';
import { locales } from '../../contract/locales.ts';
import type { Operation } from '../../lib/auth/operations.ts';
import { strictObject } from '../../lib/auth/operations.ts';

/** The JSON-schema pieces the API's routes share; the bodies are the operations' (lib/auth/operations.ts). */

/** The user as the API shows it (contract/page-data.ts's PublicUser). */
export const publicUserSchema = strictObject(
  {
    id: { type: 'string' },
    email: { type: 'string' },
    displayName: { type: 'string' },
    locale: { type: 'string', enum: [...locales] },
    createdAt: { type: 'string', format: 'date-time' },
    emailVerified: { type: 'boolean' },
  },
  ['id', 'email', 'displayName', 'locale', 'createdAt', 'emailVerified'],
);

export const userResponseSchema = strictObject({ user: publicUserSchema }, ['user']);

/** Login and registration: the user, and the session a programmatic client sends as `Authorization: Bearer`. */
export const sessionResponseSchema = strictObject(
  {
    user: publicUserSchema,
    token: { type: 'string' },
    /** When the session ends unless it is used (each use within the last day moves it on). */
    expiresAt: { type: 'string', format: 'date-time' },
  },
  ['user', 'token', 'expiresAt'],
);

export const messageSchema = strictObject({ message: { type: 'string' } }, ['message']);

/** The error answer `{ statusCode, code, message, fields? }` (plugins/app/errors.ts) for each of these statuses. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}

export const authErrors = errorResponses(400, 401, 409, 413, 415, 429, 500);

/** The error answers of a route that uses an emailed link: the account API's, and 410 for an expired link. */
export const tokenErrors = { ...authErrors, ...errorResponses(410) };

/** The route options that run an operation as a form would: its limit first, then its schema. */
export function operationRoute<const S extends object, R, const Responses extends object>(
  op: Operation<S, R>,
  response: Responses,
) {
  return {
    ...(op.limit ? { onRequest: op.limit } : {}),
    config: { bodyFieldChecks: op.fieldChecks },
    schema: { body: op.body, response },
  };
}
