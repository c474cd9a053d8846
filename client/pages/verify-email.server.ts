import { localePath } from '../../contract/locales.ts';
import { formBody, perform, verifyEmail } from '../../lib/auth/operations.ts';
import { type FormAction, formFailure, linkFailure } from '../../lib/pages/page-server.ts';

/**
 * The button of the page an emailed link opens: opening the link changes nothing (mail scanners
 * open links too), the button uses its token.
 */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  const page = localePath(locale, '/verify-email');
  try {
    const owner = await perform(verifyEmail, request, reply, formBody(verifyEmail, fields));
    const { user } = request;
    return {
      ok: true,
      redirect: `${page}?done=1`,
      ...(user?.id === owner ? { user: { ...user, emailVerified: true } } : {}),
    };
  } catch (error) {
    return linkFailure(error, page) ?? formFailure(error, {}, reply);
  }
};
