import { HttpError } from '../../../contract/http-error.ts';
import { localePath } from '../../../contract/locales.ts';
import { type FormAction, formFailure } from './results.ts';

/**
 * The buttons of the pages an emailed link opens (`/verify-email`, `/confirm-email`): opening a
 * link changes nothing (mail scanners open links too), the button uses its token.
 */

export const verifyEmail: FormAction = async ({ locale, fields }, request, reply) => {
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

export const confirmEmail: FormAction = async ({ locale, fields }, request, reply) => {
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
