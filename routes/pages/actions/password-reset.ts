import { localePath } from '../../../contract/locales.ts';
import { type FormAction, formFailure } from './results.ts';

/** "Forgot password" and the emailed reset link's form, through `app.passwordResets` as the JSON API. */

export const forgotPassword: FormAction = async ({ locale, fields }, request, reply) => {
  const { passwordResets } = request.server;
  const values = { email: fields.email ?? '' };
  try {
    await passwordResets.limitPerIp(request);
    await passwordResets.request(request, values.email);
    return { ok: true, redirect: `${localePath(locale, '/forgot-password')}?sent=1` };
  } catch (error) {
    return formFailure(error, values, reply);
  }
};

export const resetPassword: FormAction = async ({ locale, fields }, request, reply) => {
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
