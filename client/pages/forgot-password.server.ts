import { localePath } from '../../contract/locales.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/** "Forgot password", through `app.passwordResets` as the JSON API. */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
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
