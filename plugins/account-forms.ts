import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { flashCookie, type FlashCode } from '../client/lib/flash.ts';
import fp from 'fastify-plugin';
import { validateRegistration } from '../lib/auth/validation.ts';
import { HttpError } from '../lib/http-error.ts';
import { localePath } from '../lib/locales.ts';
import type { FormActionResult } from '../lib/page-data.ts';

/** An API error as the form shows it (429 keeps its Retry-After); anything else propagates. */
export function formFailure(error: unknown, values: Record<string, string>, reply: FastifyReply): FormActionResult {
  if (!(error instanceof HttpError)) throw error;
  if (error.headers) reply.headers(error.headers);
  return {
    ok: false,
    status: error.statusCode,
    values,
    errors: error.fields ?? {},
    ...(error.fields ? {} : { message: error.code }),
  };
}

/** The one-shot notice of the next page (plugins/ssr.ts reads and clears it): a minute is plenty for a redirect. */
export function setFlash(request: FastifyRequest, reply: FastifyReply, code: FlashCode): void {
  reply.setCookie(flashCookie, code, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: 60 });
}

/**
 * Login, registration and logout for browsers without JavaScript: plain form posts that end
 * in the same account service calls and cookie as the JSON API, then a 303 to the next page.
 */
export default fp(
  async (app: FastifyInstance) => {
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
  },
  { name: 'account-forms', dependencies: ['form-actions'] },
);
