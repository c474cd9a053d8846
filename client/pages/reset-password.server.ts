import { localePath } from '../../contract/locales.ts';
import { formBody, perform, resetPassword } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure, linkFailure } from '../../lib/pages/page-server.ts';

/** The emailed reset link's form. */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  try {
    const user = await perform(resetPassword, request, reply, formBody(resetPassword, fields));
    return { ok: true, redirect: `${localePath(locale, '/account')}?done=password-reset`, user };
  } catch (error) {
    return linkFailure(error, localePath(locale, '/reset-password')) ?? formFailure(error, {}, reply);
  }
};
