import { localePath } from '../../contract/locales.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/** The emailed reset link's form, through `app.passwordResets` as the JSON API. */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  const app = request.server;
  const page = localePath(locale, '/reset-password');
  try {
    await app.accountLinks.limitUse(request);
    const result = await app.passwordResets.reset(request, fields.token ?? '', fields.password ?? '');
    if (!result.ok && 'problem' in result) return { ok: true, redirect: `${page}?problem=${result.problem}` };
    if (!result.ok) return { ok: false, status: 400, values: {}, errors: result.fields };
    app.accounts.setSessionCookie(request, reply, result.session);
    request.log.info({ user: result.session.user.id }, 'password reset; every other session ended');
    return {
      ok: true,
      redirect: `${localePath(locale, '/account')}?done=password-reset`,
      user: result.session.user,
    };
  } catch (error) {
    return formFailure(error, {}, reply);
  }
};
