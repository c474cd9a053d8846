import type { FastifyInstance } from 'fastify';
import { tokenFailed } from '../../lib/http/link-errors.ts';
import { jsonApiScope } from '../../lib/json-api.ts';
import { validationFailed } from '../../lib/http/validation.ts';
import { authErrors, messageSchema, strictObject, text, tokenErrors, userResponseSchema } from './schemas.ts';

/** No login: the link says whose it is. */
export function linkUseOptions<Body extends object, Ok extends Record<number, object>>(
  app: FastifyInstance,
  body: Body,
  ok: Ok,
) {
  return {
    config: { auth: false as const },
    onRequest: app.accountLinks.limitUse,
    schema: { body, response: { ...ok, ...tokenErrors } },
  };
}

const acceptedMessage =
  'If an account uses this address, a link to choose a new password is on its way. It works once, for 30 minutes.';

/** Asking for a link answers the same 202, known address or not (503 while the disk is full). */
export default async function passwordResetRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);
  const { passwordResets } = app;

  app.post(
    '/',
    {
      config: { auth: false },
      onRequest: passwordResets.limitPerIp,
      schema: {
        body: strictObject({ email: text }, ['email']),
        response: { 202: messageSchema, ...authErrors },
      },
    },
    async (request, reply) => {
      await passwordResets.request(request, request.body.email);
      return reply.code(202).send({ message: acceptedMessage });
    },
  );

  app.post(
    '/confirm',
    linkUseOptions(app, strictObject({ token: text, password: text }, ['token', 'password']), {
      200: userResponseSchema,
    }),
    async (request, reply) => {
      const { token, password } = request.body;
      const result = await passwordResets.reset(request, token, password);
      if (!result.ok) throw 'problem' in result ? tokenFailed(result.problem) : validationFailed(result.fields);
      request.log.info({ user: result.session.user.id }, 'password reset; every other session ended');
      app.accounts.setSessionCookie(request, reply, result.session);
      return { user: result.session.user };
    },
  );
}
