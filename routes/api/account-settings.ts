import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { locales } from '../../contract/locales.ts';
import { errorResponses, messageSchema, strictObject, text, userResponseSchema } from './schemas.ts';

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
    {
      schema: {
        body: {
          ...strictObject({ displayName: text, locale: { type: 'string', enum: [...locales] } }, []),
          minProperties: 1,
        },
        response: { 200: userResponseSchema, ...errors },
      },
    },
    async (request) => ({ user: await settings.updateProfile(request, request.body) }),
  );

  app.post(
    '/password',
    {
      schema: {
        body: strictObject({ currentPassword: text, newPassword: text }, ['currentPassword', 'newPassword']),
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            properties: { endedSessions: { type: 'integer' } },
            required: ['endedSessions'],
          },
          ...errors,
        },
      },
    },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      return settings.changePassword(request, currentPassword, newPassword);
    },
  );

  app.post(
    '/email',
    {
      schema: {
        body: strictObject({ currentPassword: text, newEmail: text }, ['currentPassword', 'newEmail']),
        response: {
          202: {
            type: 'object',
            additionalProperties: false,
            properties: { pendingEmail: { type: 'string' }, message: { type: 'string' } },
            required: ['pendingEmail', 'message'],
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { currentPassword, newEmail } = request.body;
      const pendingEmail = await settings.requestEmailChange(request, currentPassword, newEmail);
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
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
        response: { 204: { type: 'null' }, ...errors },
      },
    },
    async (request, reply) => {
      await settings.endSession(request, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/',
    {
      schema: { body: strictObject({ password: text }, ['password']), response: { 204: { type: 'null' }, ...errors } },
    },
    async (request, reply) => {
      await settings.deleteAccount(request, request.body.password);
      app.accounts.clearSessionCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
}
