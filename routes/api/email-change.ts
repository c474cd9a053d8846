import type { FastifyInstance } from 'fastify';
import { jsonApiScope } from '../../lib/json-api.ts';
import { fieldsFromSchemaErrors, schemaErrorsOf, text, validationFailed } from './auth.ts';
import { tokenErrors } from './password-reset.ts';

/** `POST /api/auth/email-change/confirm { token }`: the link sent to the new address (no login needed: the link proves it). */
export default async function emailChangeRoutes(app: FastifyInstance) {
  jsonApiScope(app);
  app.post(
    '/confirm',
    {
      config: { auth: false },
      onRequest: app.accountLinks.limitUse,
      attachValidation: true,
      schema: {
        body: { type: 'object', additionalProperties: false, properties: { token: text }, required: ['token'] },
        response: {
          200: { type: 'object', additionalProperties: false, properties: { email: { type: 'string' } }, required: ['email'] },
          ...tokenErrors,
        },
      },
    },
    async (request) => {
      const schemaErrors = schemaErrorsOf(request);
      if (schemaErrors) throw validationFailed(fieldsFromSchemaErrors(schemaErrors, request.body));
      const user = await app.accountSettings.confirmEmailChange((request.body as { token: string }).token);
      return { email: user.email };
    },
  );
}
