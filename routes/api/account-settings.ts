import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import {
  changePassword,
  deleteAccount,
  endSession,
  requestEmailChange,
  strictObject,
  updateProfile,
} from '../../lib/auth/operations.ts';
import { errorResponses, messageSchema, operationRoute, userResponseSchema } from './schemas.ts';

const errors = errorResponses(400, 401, 404, 409, 413, 415, 429, 500);

const sessionSchema = strictObject(
  {
    id: { type: 'string' },
    device: { type: 'string' },
    userAgent: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    lastSeenAt: { type: 'string', format: 'date-time' },
    current: { type: 'boolean' },
  },
  ['id', 'device', 'userAgent', 'createdAt', 'lastSeenAt', 'current'],
);

/** Beside Play's `/api/account` routes (routes/api/account.ts); refused input changes nothing. */
export default async function accountSettingsRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);
  app.addHook('preHandler', app.accounts.requireUser);
  const settings = app.accountSettings;

  app.post('/verification', { schema: { response: { 202: messageSchema, ...errors } } }, async (request, reply) => {
    await app.emailVerification.resend(request);
    return reply.code(202).send({ message: 'A new link is on its way to your email address.' });
  });

  app.patch(
    '/profile',
    operationRoute(updateProfile, { 200: userResponseSchema, ...errors }),
    async (request, reply) => ({
      user: await updateProfile.run(request, reply, request.body),
    }),
  );

  app.post(
    '/password',
    operationRoute(changePassword, {
      200: {
        type: 'object',
        additionalProperties: false,
        properties: { endedSessions: { type: 'integer' } },
        required: ['endedSessions'],
      },
      ...errors,
    }),
    (request, reply) => changePassword.run(request, reply, request.body),
  );

  app.post(
    '/email',
    operationRoute(requestEmailChange, {
      202: {
        type: 'object',
        additionalProperties: false,
        properties: { pendingEmail: { type: 'string' }, message: { type: 'string' } },
        required: ['pendingEmail', 'message'],
      },
      ...errors,
    }),
    async (request, reply) => {
      const pendingEmail = await requestEmailChange.run(request, reply, request.body);
      return reply
        .code(202)
        .send({ pendingEmail, message: 'Use the link sent to the new address to finish the change.' });
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            properties: { sessions: { type: 'array', items: sessionSchema } },
            required: ['sessions'],
          },
          ...errors,
        },
      },
    },
    async (request) => ({ sessions: await settings.sessions(request, request.user!.locale) }),
  );

  app.delete(
    '/sessions',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            properties: { ended: { type: 'integer' } },
            required: ['ended'],
          },
          ...errors,
        },
      },
    },
    async (request) => ({ ended: await settings.endOtherSessions(request) }),
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        params: endSession.body,
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await endSession.run(request, reply, request.params);
      return reply.code(204).send(null);
    },
  );

  app.delete('/', operationRoute(deleteAccount, { 204: { type: 'null' }, ...errors }), async (request, reply) => {
    await deleteAccount.run(request, reply, request.body);
    return reply.code(204).send(null);
  });
}
