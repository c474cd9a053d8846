import { localePath } from '../../contract/locales.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/**
 * The button of the page an emailed link opens: opening the link changes nothing (mail scanners
 * open links too), the button uses its token.
 */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  const app = request.server;
  const page = localePath(locale, '/verify-email');
  try {
    await app.accountLinks.limitUse(request);
    const result = await app.emailVerification.service.verify(fields.token ?? '');
    if (!result.ok) return { ok: true, redirect: `${page}?problem=${result.problem}` };
    const { user } = request;
    return {
      ok: true,
      redirect: `${page}?done=1`,
      ...(user?.id === result.row.user_id ? { user: { ...user, emailVerified: true } } : {}),
    };
  } catch (error) {
    return formFailure(error, {}, reply);
  }
};
