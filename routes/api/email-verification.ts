import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { tokenFailed } from '../../lib/http/link-errors.ts';
import { linkUseOptions } from './password-reset.ts';
import { strictObject, tokenBodySchema } from './schemas.ts';

/** `POST /api/auth/verify-email { token }`: uses the link from the verification email (no login needed). */
export default async function emailVerificationRoutes(scope: FastifyInstance) {
  const app = jsonApiScope(scope);
  app.post(
    '/',
    linkUseOptions(app, tokenBodySchema, {
      200: strictObject({ emailVerified: { type: 'boolean', const: true } }, ['emailVerified']),
    }),
    async (request) => {
      const result = await app.emailVerification.service.verify(request.body.token);
      if (!result.ok) throw tokenFailed(result.problem);
      request.log.info({ user: result.row.user_id }, 'email address verified');
      return { emailVerified: true as const };
    },
  );
}
