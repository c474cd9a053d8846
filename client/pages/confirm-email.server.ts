import { localePath } from '../../contract/locales.ts';
import { confirmEmailChange, formBody, perform } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure, linkFailure } from '../../lib/pages/page-server.ts';

/** The button of the page the link sent to the new address opens (as verify-email's, a click spends it). */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  const page = localePath(locale, '/confirm-email');
  try {
    const changed = await perform(confirmEmailChange, request, reply, formBody(confirmEmailChange, fields));
    return { ok: true, redirect: `${page}?done=1`, ...(request.user?.id === changed.id ? { user: changed } : {}) };
  } catch (error) {
    return linkFailure(error, page) ?? formFailure(error, {}, reply);
  }
};
