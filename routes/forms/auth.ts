import type { FastifyInstance } from 'fastify';
import { validateRegistration } from '../../lib/auth/validation.ts';
import { localePath } from '../../contract/locales.ts';
import { formFailure, setFlash } from './form-results.ts';

/** The same account service calls and cookie as the JSON API, then a 303 to the next page. */
export default async function authFormRoutes(app: FastifyInstance) {
  const { accounts } = app;

  app.formActions.define('login', async ({ locale, fields, redirectTo }, request, reply) => {
    const values = { email: fields.email ?? '' };
    try {
      await accounts.limitLoginPerIp(request);
      const session = await accounts.login(request, values.email, fields.password ?? '');
      accounts.setSessionCookie(request, reply, session);
      setFlash(request, reply, 'signedIn');
      return { ok: true, redirect: redirectTo ?? localePath(locale, '/') };
    } catch (error) {
      return formFailure(error, values, reply);
    }
  });

  app.formActions.define('register', async ({ locale, fields, redirectTo }, request, reply) => {
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
      setFlash(request, reply, 'registered');
      return { ok: true, redirect: redirectTo ?? localePath(locale, '/') };
    } catch (error) {
      return formFailure(error, values, reply);
    }
  });

  app.formActions.define('logout', async ({ locale }, request, reply) => {
    await accounts.logout(request);
    accounts.clearSessionCookie(request, reply);
    setFlash(request, reply, 'signedOut');
    return { ok: true, redirect: localePath(locale, '/') };
  });
}
