import type { FastifyInstance } from 'fastify';
import { localePath } from '../../contract/locales.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import { formFailure } from './form-results.ts';

/** The verification link without JavaScript: the button on `/verify-email?token=` (form action `verifyEmail`). */
export default async function emailVerificationFormRoutes(app: FastifyInstance) {
  app.formActions.define('verifyEmail', async ({ locale, fields }, request, reply): Promise<FormActionResult> => {
    const page = localePath(locale, '/verify-email');
    try {
      await app.accountLinks.limitUse(request);
      const result = await app.emailVerification.service.verify(fields.token ?? '');
      if (!result.ok) return { ok: true, redirect: `${page}?problem=${result.problem}` };
      return { ok: true, redirect: `${page}?done=1` };
    } catch (error) {
      return formFailure(error, {}, reply);
    }
  });
}
