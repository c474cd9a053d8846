import { localePath } from '../../contract/locales.ts';
import { formBody, perform, requestPasswordReset } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

export const action: FormAction = async ({ locale, fields }, request, reply) => {
  try {
    await perform(requestPasswordReset, request, reply, formBody(requestPasswordReset, fields));
    return { ok: true, redirect: `${localePath(locale, '/forgot-password')}?sent=1` };
  } catch (error) {
    return formFailure(error, { email: fields.email ?? '' }, reply);
  }
};
