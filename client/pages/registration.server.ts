import { localePath } from '../../contract/locales.ts';
import { validateRegistration } from '../../lib/auth/validation.ts';
import { type FormAction, formFailure } from '../../lib/pages/page-server.ts';

/** Registering: the same rules, account service call and cookie as the JSON API (routes/api/auth.ts). */
export const action: FormAction = async ({ locale, fields, redirectTo }, request, reply) => {
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
