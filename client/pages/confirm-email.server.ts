import { HttpError } from '../../contract/http-error.ts';
import { localePath } from '../../contract/locales.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/**
 * The button of the page an emailed link opens: opening the link changes nothing (mail scanners
 * open links too), the button uses its token.
 */
export const action: FormAction = async ({ locale, fields }, request, reply) => {
  const app = request.server;
  const page = localePath(locale, '/confirm-email');
  try {
    await app.accountLinks.limitUse(request);
    const changed = await app.accountSettings.confirmEmailChange(fields.token ?? '');
    return {
      ok: true,
      redirect: `${page}?done=1`,
      ...(request.user?.id === changed.id ? { user: changed } : {}),
    };
  } catch (error) {
    const code = error instanceof HttpError ? error.code : '';
    if (code === 'TOKEN_INVALID' || code === 'TOKEN_USED' || code === 'TOKEN_EXPIRED') {
      return { ok: true, redirect: `${page}?problem=${code.slice(6).toLowerCase()}` };
    }
    return formFailure(error, {}, reply);
  }
};
