import { localePath } from '../../../contract/locales.ts';
import { validateRegistration } from '../../../lib/auth/validation.ts';
import { type FormAction, formFailure } from './results.ts';

/** Login, registration and logout: the same account service calls and cookie as the JSON API. */

export const login: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
  const { accounts } = request.server;
  const values = { email: fields.email ?? '' };
  // As the API's schema: an empty field is named, not reported as wrong credentials.
  const missing = Object.fromEntries(
    ['email', 'password'].filter((name) => !fields[name]).map((name) => [name, 'required']),
  );
  if (Object.keys(missing).length > 0) return { ok: false, status: 400, values, errors: missing };
  try {
    await accounts.limitLoginPerIp(request);
    const session = await accounts.login(request, values.email, fields.password ?? '');
    accounts.setSessionCookie(request, reply, session);
    return { ok: true, redirect: redirectTo ?? localePath(locale, '/'), flash: 'signedIn', user: session.user };
  } catch (error) {
    return formFailure(error, values, reply);
  }
};

export const register: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
  const { accounts } = request.server;
  const values = { email: fields.email ?? '', displayName: fields.displayName ?? '' };
  try {
    await accounts.limitRegisterPerIp(request);
    const checked = validateRegistration({
      email: fields.email ?? '',
      password: fields.password ?? '',
      displayName: fields.displayName ?? '',
      locale,
      // Unticked checkboxes are simply absent from a form post.
      acceptTerms: fields.acceptTerms === 'on',
      confirmAge: fields.confirmAge === 'on',
    });
    if (!checked.ok) return { ok: false, status: 400, values, errors: checked.fields };
    const session = await accounts.register(request, checked.value);
    accounts.setSessionCookie(request, reply, session);
    return { ok: true, redirect: redirectTo ?? localePath(locale, '/'), flash: 'registered', user: session.user };
  } catch (error) {
    return formFailure(error, values, reply);
  }
};

/** Logging out never fails for the visitor: the cookie goes even when the session cannot be revoked now. */
export const logout: FormAction = async ({ locale }, request, reply) => {
  const { accounts } = request.server;
  try {
    await accounts.logout(request);
  } catch (error) {
    request.log.warn({ err: error }, 'logout: the session could not be revoked; its cookie is cleared');
  }
  accounts.clearSessionCookie(request, reply);
  return { ok: true, redirect: localePath(locale, '/'), flash: 'signedOut', user: null };
};
