import { localePath } from '../../contract/locales.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/** Logging in: the same account service calls and cookie as the JSON API (routes/api/auth.ts). */
export const action: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
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
