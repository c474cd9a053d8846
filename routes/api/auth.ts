import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../contract/http-error.ts';
import type { IssuedSession } from '../../lib/auth/accounts.ts';
import {
  confirmEmailChange,
  login,
  register,
  requestPasswordReset,
  resetPassword,
  strictObject,
  verifyEmail,
} from '../../lib/auth/operations.ts';
import { jsonApiScope } from '../../lib/json-api.ts';
import {
  authErrors as errors,
  messageSchema,
  operationRoute,
  sessionResponseSchema,
  tokenErrors,
  userResponseSchema,
} from './schemas.ts';

const acceptedMessage =
  'If an account uses this address, a link to choose a new password is on its way. It works once, for 30 minutes.';

/** An emailed link says whose it is: no login, so no session is looked up. */
const publicRoute = <O extends ReturnType<typeof operationRoute>>(options: O) => ({
  ...options,
  config: { ...options.config, auth: false as const },
});

/** The cookie is for pages; a programmatic client takes the token from the body. */
const sessionAnswer = ({ user, token, expiresAt }: IssuedSession) => ({
  user,
  token,
  expiresAt: expiresAt.toISOString(),
});

/**
 * Every body and answer has a schema; errors carry stable field codes. Asking for a reset link
 * answers the same 202, known address or not (503 while the disk is full).
 */
export default async function authRoutes(scope: FastifyInstance) {
  // Only JSON here (the no-JavaScript form posts get their own routes). An empty body counts as
  // no body, so `POST /logout` with a JSON content type and nothing in it is fine.
  const app = jsonApiScope(scope);

  app.post('/register', operationRoute(register, { 201: sessionResponseSchema, ...errors }), async (request, reply) =>
    reply.code(201).send(sessionAnswer(await register.run(request, reply, request.body))),
  );

  app.post('/login', operationRoute(login, { 200: sessionResponseSchema, ...errors }), async (request, reply) =>
    sessionAnswer(await login.run(request, reply, request.body)),
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

  app.post(
    '/password-reset',
    publicRoute(operationRoute(requestPasswordReset, { 202: messageSchema, ...errors })),
    async (request, reply) => {
      await requestPasswordReset.run(request, reply, request.body);
      return reply.code(202).send({ message: acceptedMessage });
    },
  );

  app.post(
    '/password-reset/confirm',
    publicRoute(operationRoute(resetPassword, { 200: userResponseSchema, ...tokenErrors })),
    async (request, reply) => ({ user: await resetPassword.run(request, reply, request.body) }),
  );

  app.post(
    '/verify-email',
    publicRoute(
      operationRoute(verifyEmail, {
        200: strictObject({ emailVerified: { type: 'boolean', const: true } }, ['emailVerified']),
        ...tokenErrors,
      }),
    ),
    async (request, reply) => {
      await verifyEmail.run(request, reply, request.body);
      return { emailVerified: true as const };
    },
  );

  app.post(
    '/email-change/confirm',
    publicRoute(
      operationRoute(confirmEmailChange, {
        200: strictObject({ email: { type: 'string' } }, ['email']),
        ...tokenErrors,
      }),
    ),
    async (request, reply) => ({ email: (await confirmEmailChange.run(request, reply, request.body)).email }),
  );
}
