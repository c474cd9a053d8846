import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../contract/http-error.ts';
import type { IssuedSession } from '../../lib/auth/accounts.ts';
import { type FieldErrors, validateRegistration } from '../../lib/auth/validation.ts';
import { validationFailed } from '../../lib/http/validation.ts';
import { jsonApiScope } from '../../lib/json-api.ts';
import { locales } from '../../contract/locales.ts';
import { authErrors as errors, sessionResponseSchema, text, userResponseSchema } from './schemas.ts';

// Strict validation (schemas.ts says why).
const registerBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: text,
    /** 8 to 128 characters, not the email, not a common password (checked after the schema). */
    password: text,
    displayName: text,
    locale: { type: 'string', enum: [...locales] },
    /** Must be true. */
    acceptTerms: { type: 'boolean' },
    /** Must be true: the user is 18 or older. */
    confirmAge: { type: 'boolean' },
  },
  required: ['email', 'password', 'displayName', 'locale', 'acceptTerms', 'confirmAge'],
} as const;

const loginBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { ...text, minLength: 1 },
    password: { ...text, minLength: 1 },
  },
  required: ['email', 'password'],
} as const;

/** Registration's own rules, also run on a body the schema refused: one answer names every problem. */
function registrationFieldChecks(body: Record<string, unknown>): FieldErrors {
  const checked = validateRegistration(body);
  return checked.ok ? {} : checked.fields;
}

/** The cookie is for pages; a programmatic client takes the token from the body. */
const sessionAnswer = ({ user, token, expiresAt }: IssuedSession) => ({
  user,
  token,
  expiresAt: expiresAt.toISOString(),
});

/** Every body and answer has a schema; errors carry stable field codes. */
export default async function authRoutes(scope: FastifyInstance) {
  // Only JSON here (the no-JavaScript form posts get their own routes). An empty body counts as
  // no body, so `POST /logout` with a JSON content type and nothing in it is fine.
  const app = jsonApiScope(scope);

  app.post(
    '/register',
    {
      onRequest: app.accounts.limitRegisterPerIp,
      config: { bodyFieldChecks: registrationFieldChecks },
      schema: { body: registerBodySchema, response: { 201: sessionResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const checked = validateRegistration(request.body);
      if (!checked.ok) throw validationFailed(checked.fields);
      const session = await app.accounts.register(request, checked.value);
      app.accounts.setSessionCookie(request, reply, session);
      return reply.code(201).send(sessionAnswer(session));
    },
  );

  app.post(
    '/login',
    {
      onRequest: app.accounts.limitLoginPerIp,
      schema: { body: loginBodySchema, response: { 200: sessionResponseSchema, ...errors } },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const session = await app.accounts.login(request, email, password);
      app.accounts.setSessionCookie(request, reply, session);
      return sessionAnswer(session);
    },
  );

  // The session is named by the Bearer header only: a cookie alone ends nothing (no cross-site
  // logout), so without the header nothing happens and the answer says so, clearing no cookie.
  app.post('/logout', { schema: { response: { 204: { type: 'null' }, ...errors } } }, async (request, reply) => {
    if (app.accounts.bearerToken(request) === null) {
      throw new HttpError(401, 'UNAUTHENTICATED', 'Send the session token as Authorization: Bearer to log out.');
    }
    await app.accounts.logout(request);
    app.accounts.clearSessionCookie(request, reply);
    return reply.code(204).send(null);
  });

  app.get(
    '/me',
    { preHandler: app.accounts.requireUser, schema: { response: { 200: userResponseSchema, ...errors } } },
    async (request) => ({ user: request.user! }),
  );
}
