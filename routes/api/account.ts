import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { selfExclusionPeriods } from '../../contract/play.ts';
import { selfExclude } from '../../lib/auth/operations.ts';
import { errorResponses, operationRoute, publicUserSchema } from './schemas.ts';
import { sendUntilError, untilErrorSchema } from './play.ts';

const selfExclusionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    until: { type: 'string', format: 'date-time' },
    period: { type: 'string', enum: [...selfExclusionPeriods] },
    startsAt: { type: 'string', format: 'date-time' },
  },
  required: ['until', 'period', 'startsAt'],
} as const;

const accountSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    user: publicUserSchema,
    playSessions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          startedAt: { type: 'string', format: 'date-time' },
          locale: { type: 'string' },
          userAgent: { type: ['string', 'null'] },
        },
        required: ['id', 'startedAt', 'locale', 'userAgent'],
      },
    },
    selfExclusion: { anyOf: [selfExclusionSchema, { type: 'null' }] },
  },
  required: ['user', 'playSessions', 'selfExclusion'],
} as const;

const errors = errorResponses(400, 401, 413, 415, 500);

/** `/api/account` (Bearer auth): the player's play sessions and the self-exclusion break. */
export default async function accountRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);
  app.addHook('preHandler', app.accounts.requireUser);

  app.get('/', { schema: { response: { 200: accountSchema, ...errors } } }, async (request) => ({
    user: request.user!,
    ...(await app.play.service.overview(request.user!.id)),
  }));

  app.post(
    '/self-exclusion',
    operationRoute(selfExclude, { 201: selfExclusionSchema, 409: untilErrorSchema, ...errors }),
    async (request, reply) => {
      const result = await selfExclude.run(request, reply, request.body);
      if (result.ok) return reply.code(201).send(result.selfExclusion);
      const message = 'A break is already in force; it can only be made longer, never shorter.';
      return sendUntilError(reply, 409, 'SELF_EXCLUSION_ACTIVE', message, result.current.until);
    },
  );
}
