import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { fieldsFromSchemaErrors, schemaErrorsOf, text, validationFailed } from './auth.ts';
import { tokenErrors, tokenFailed } from './password-reset.ts';

/** `POST /api/auth/verify-email { token }`: uses the link from the verification email (no login needed). */
export default async function emailVerificationRoutes(app: FastifyInstance) {
  jsonApiScope(app);
  app.post(
    '/',
    {
      config: { auth: false },
      onRequest: app.accountLinks.limitUse,
      attachValidation: true,
      schema: {
        body: { type: 'object', additionalProperties: false, properties: { token: text }, required: ['token'] },
        response: {
          200: { type: 'object', additionalProperties: false, properties: { emailVerified: { type: 'boolean', const: true } }, required: ['emailVerified'] },
          ...tokenErrors,
        },
      },
    },
    async (request) => {
      const schemaErrors = schemaErrorsOf(request);
      if (schemaErrors) throw validationFailed(fieldsFromSchemaErrors(schemaErrors, request.body));
      const result = await app.emailVerification.service.verify((request.body as { token: string }).token);
      if (!result.ok) throw tokenFailed(result.problem);
      request.log.info({ user: result.row.user_id }, 'email address verified');
      return { emailVerified: true };
    },
  );
}
