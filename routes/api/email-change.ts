import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { linkUseOptions } from './password-reset.ts';
import { strictObject, tokenBodySchema } from './schemas.ts';

/** `POST /api/auth/email-change/confirm { token }`: the link sent to the new address (no login needed: the link proves it). */
export default async function emailChangeRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);
  app.post(
    '/confirm',
    linkUseOptions(app, tokenBodySchema, { 200: strictObject({ email: { type: 'string' } }, ['email']) }),
    async (request) => {
      const user = await app.accountSettings.confirmEmailChange(request.body.token);
      return { email: user.email };
    },
  );
}
