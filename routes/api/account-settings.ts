import type { FastifyInstance } from 'fastify';
import { errorResponseSchema } from '../../lib/http-error.ts';
import { jsonApiScope } from '../../lib/json-api.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  415: errorResponseSchema,
  429: errorResponseSchema,
  500: errorResponseSchema,
} as const;

const acceptedSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { message: { type: 'string' } },
  required: ['message'],
} as const;

/**
 * `/api/account/*` for keeping an account (Bearer auth): verification resends, and (below) the
 * account's details, sessions and deletion. Registered by plugins/account-settings.ts beside
 * Play's `/api/account` routes (routes/api/account.ts).
 */
export default async function accountSettingsRoutes(app: FastifyInstance) {
  jsonApiScope(app);
  app.addHook('preHandler', app.accounts.requireUser);

  app.post(
    '/verification',
    { schema: { response: { 202: acceptedSchema, ...errors } } },
    async (request, reply) => {
      await app.emailVerification.resend(request);
      return reply.code(202).send({ message: 'A new link is on its way to your email address.' });
    },
  );
}
