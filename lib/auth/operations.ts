import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { locales } from '../../contract/locales.ts';
import { selfExclusionPeriods } from '../../contract/play.ts';
import { tokenFailed } from '../http/link-errors.ts';
import { fieldsFromSchemaErrors, validationFailed } from '../http/validation.ts';
import { apiValidator } from '../json-api.ts';
import { type FieldErrors, limits, validateRegistration } from './validation.ts';

/*
 * Each account operation once: its body's schema, the limit counted before the body is read, and
 * the function the JSON API and the page's form both call, each mapping the result its own way.
 */

/** A string field: any string up to the hard maximum (each field's own rules are checked after the schema). */
export const text = { type: 'string', maxLength: limits.stringHardMax } as const;

/** Strict: the API's Ajv refuses unknown properties and wrong types rather than dropping or coercing them. */
export const strictObject = <const P extends Record<string, unknown>, const R extends readonly string[]>(
  properties: P,
  required: R,
) => ({ type: 'object', additionalProperties: false, properties, required }) as const;

export interface Operation<S, R, Body = S extends JSONSchema ? FromSchema<S> : never> {
  readonly body: S;
  readonly limit?: (request: FastifyRequest) => Promise<void>;
  /** Rules past the schema that run on a refused body too, so one answer names every problem. */
  readonly fieldChecks?: (body: Record<string, unknown>) => FieldErrors;
  run(request: FastifyRequest, reply: FastifyReply, body: Body): Promise<R>;
}

type AnyOperation = Operation<object, unknown, never>;
const operation = <const S extends object, R>(op: Operation<S, R>) => op;
const signedIn = (request: FastifyRequest) => request.user as PublicUser;
const useLink = (request: FastifyRequest) => request.server.accountLinks.limitUse(request);
const tokenBody = strictObject({ token: text }, ['token']);
const localeField = { type: 'string', enum: [...locales] } as const;

/** Throws the 400 the API answers for the same body. */
export function checkBody(op: AnyOperation, body: Record<string, unknown>): never {
  const validate = apiValidator(op.body);
  if (validate(body)) return body as never;
  throw validationFailed({ ...op.fieldChecks?.(body), ...fieldsFromSchemaErrors(validate.errors ?? [], body) });
}

/** As the API route runs it (limit, schema, operation); throws the HttpError the API would answer. */
export async function perform<R>(
  op: Operation<object, R, never>,
  request: FastifyRequest,
  reply: FastifyReply,
  body: Record<string, unknown>,
): Promise<R> {
  await op.limit?.(request);
  return op.run(request, reply, checkBody(op, body));
}

/** A form's fields as the operation's body: its properties only; a ticked checkbox posts "on". */
export function formBody(op: AnyOperation, fields: Record<string, string>) {
  const properties = (op.body as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'boolean') body[name] = fields[name] === 'on';
    else if (fields[name] !== undefined) body[name] = fields[name];
  }
  return body;
}

export const register = operation({
  body: strictObject(
    {
      email: text,
      password: text,
      displayName: text,
      locale: localeField,
      acceptTerms: { type: 'boolean' },
      confirmAge: { type: 'boolean' },
    },
    ['email', 'password', 'displayName', 'locale', 'acceptTerms', 'confirmAge'],
  ),
  limit: (request) => request.server.accounts.limitRegisterPerIp(request),
  fieldChecks(body) {
    const checked = validateRegistration(body);
    return checked.ok ? {} : checked.fields;
  },
  async run(request, reply, body) {
    const checked = validateRegistration(body);
    if (!checked.ok) throw validationFailed(checked.fields);
    const session = await request.server.accounts.register(request, checked.value);
    request.server.accounts.setSessionCookie(request, reply, session);
    return session;
  },
});

export const login = operation({
  body: strictObject({ email: { ...text, minLength: 1 }, password: { ...text, minLength: 1 } }, ['email', 'password']),
  limit: (request) => request.server.accounts.limitLoginPerIp(request),
  async run(request, reply, { email, password }) {
    const session = await request.server.accounts.login(request, email, password);
    request.server.accounts.setSessionCookie(request, reply, session);
    return session;
  },
});

export const requestPasswordReset = operation({
  body: strictObject({ email: text }, ['email']),
  limit: (request) => request.server.passwordResets.limitPerIp(request),
  run: (request, _reply, { email }) => request.server.passwordResets.request(request, email),
});

export const resetPassword = operation({
  body: strictObject({ token: text, password: text }, ['token', 'password']),
  limit: useLink,
  async run(request, reply, { token, password }) {
    const result = await request.server.passwordResets.reset(request, token, password);
    if (!result.ok) throw 'problem' in result ? tokenFailed(result.problem) : validationFailed(result.fields);
    request.log.info({ user: result.session.user.id }, 'password reset; every other session ended');
    request.server.accounts.setSessionCookie(request, reply, result.session);
    return result.session.user;
  },
});

/** Returns whose address it was. */
export const verifyEmail = operation({
  body: tokenBody,
  limit: useLink,
  async run(request, _reply, { token }) {
    const result = await request.server.emailVerification.service.verify(token);
    if (!result.ok) throw tokenFailed(result.problem);
    request.log.info({ user: result.row.user_id }, 'email address verified');
    return result.row.user_id;
  },
});

export const confirmEmailChange = operation({
  body: tokenBody,
  limit: useLink,
  run: (request, _reply, { token }) => request.server.accountSettings.confirmEmailChange(token),
});

// Signed in from here on: the API's preHandler and the account page make sure of it.

export const updateProfile = operation({
  body: { ...strictObject({ displayName: text, locale: localeField }, []), minProperties: 1 },
  run: (request, _reply, body) => request.server.accountSettings.updateProfile(request, body),
});

export const changePassword = operation({
  body: strictObject({ currentPassword: text, newPassword: text }, ['currentPassword', 'newPassword']),
  run: (request, _reply, body) =>
    request.server.accountSettings.changePassword(request, body.currentPassword, body.newPassword),
});

/** Returns the address the link went to. */
export const requestEmailChange = operation({
  body: strictObject({ currentPassword: text, newEmail: text }, ['currentPassword', 'newEmail']),
  run: (request, _reply, body) =>
    request.server.accountSettings.requestEmailChange(request, body.currentPassword, body.newEmail),
});

export const endSession = operation({
  body: strictObject({ id: { type: 'string', maxLength: 64 } }, ['id']),
  run: (request, _reply, { id }) => request.server.accountSettings.endSession(request, id),
});

export const deleteAccount = operation({
  body: strictObject({ password: text }, ['password']),
  async run(request, reply, { password }) {
    await request.server.accountSettings.deleteAccount(request, password);
    request.server.accounts.clearSessionCookie(request, reply);
  },
});

/** A break from play; refused (with the break in force) while a longer one runs. */
export const selfExclude = operation({
  body: strictObject({ period: { type: 'string', enum: [...selfExclusionPeriods] } }, ['period']),
  async run(request, _reply, { period }) {
    const result = await request.server.play.service.selfExclude(signedIn(request).id, period);
    if (result.ok) request.log.info({ until: result.selfExclusion.until, period }, 'self-exclusion started');
    return result;
  },
});

export const play = operation({
  body: { type: ['object', 'null'], additionalProperties: false, properties: { locale: localeField } },
  async run(request, _reply, body) {
    const user = signedIn(request);
    const started = await request.server.play.start(user, body?.locale ?? user.locale, request.headers['user-agent']);
    if (started.ok) request.log.info({ playSession: started.playSessionId }, 'play session started');
    return started;
  },
});
