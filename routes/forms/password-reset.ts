import type { FastifyInstance } from 'fastify';
import { localePath } from '../../contract/locales.ts';
import type { FormActionResult } from '../../contract/page-data.ts';
import { formFailure } from './form-results.ts';

/** Through `app.passwordResets`, as the JSON API. */
export default async function passwordResetFormRoutes(app: FastifyInstance) {
  const { passwordResets } = app;
  app.formActions.define('forgotPassword', async ({ locale, fields }, request, reply): Promise<FormActionResult> => {
    const values = { email: fields.email ?? '' };
    try {
      await passwordResets.limitPerIp(request);
      await passwordResets.request(request, values.email);
      return { ok: true, redirect: `${localePath(locale, '/forgot-password')}?sent=1` };
    } catch (error) {
      return formFailure(error, values, reply);
    }
  });

  app.formActions.define('resetPassword', async ({ locale, fields }, request, reply): Promise<FormActionResult> => {
    const page = localePath(locale, '/reset-password');
    try {
      await app.accountLinks.limitUse(request);
      const result = await passwordResets.service.reset(
        fields.token ?? '',
        fields.password ?? '',
        request.headers['user-agent'],
      );
      if (!result.ok && 'problem' in result) return { ok: true, redirect: `${page}?problem=${result.problem}` };
      if (!result.ok) return { ok: false, status: 400, values: {}, errors: result.fields };
      app.accounts.setSessionCookie(request, reply, result.session);
      request.log.info({ user: result.session.user.id }, 'password reset; every other session ended');
      return { ok: true, redirect: `${localePath(locale, '/account')}?done=password-reset` };
    } catch (error) {
      return formFailure(error, {}, reply);
    }
  });
}
