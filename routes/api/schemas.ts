import { errorResponseSchema } from '../../contract/http-error.ts';
import { locales } from '../../contract/locales.ts';
import { limits } from '../../lib/auth/validation.ts';

/*
 * The JSON-schema pieces the API's routes share. Objects are strict (`additionalProperties: false`):
 * Fastify's shared Ajv removes unknown properties and coerces types ("true" -> true), which would
 * let extra fields and wrong types through silently.
 */

/** A string field: any string up to the hard maximum (each field's own rules are checked after the schema). */
export const text = { type: 'string', maxLength: limits.stringHardMax } as const;

export const strictObject = <const P extends Record<string, unknown>, const R extends readonly string[]>(
  properties: P,
  required: R,
) => ({ type: 'object', additionalProperties: false, properties, required }) as const;

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

/** The error answer `{ statusCode, code, message, fields? }` (plugins/errors.ts) for each of these statuses. */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}

export const authErrors = errorResponses(400, 401, 409, 413, 415, 429, 500);

export const tokenBodySchema = strictObject({ token: text }, ['token']);

/** The error answers of a route that uses an emailed link: the account API's, and 410 for an expired link. */
export const tokenErrors = { ...authErrors, ...errorResponses(410) };
