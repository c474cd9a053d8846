import { localePath } from '../../contract/locales.ts';
import type { FormAction } from '../../lib/pages/page-server.ts';

/** Logging out never fails for the visitor: the cookie goes even when the session cannot be revoked now. */
export const action: FormAction = async ({ locale }, request, reply) => {
  const { accounts } = request.server;
  try {
    await accounts.logout(request);
  } catch (error) {
    request.log.warn({ err: error }, 'logout: the session could not be revoked; its cookie is cleared');
  }
  accounts.clearSessionCookie(request, reply);
  return { ok: true, redirect: localePath(locale, '/'), flash: 'signedOut', user: null };
};
