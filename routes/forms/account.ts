import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../contract/http-error.ts';
import { localePath, type Locale } from '../../contract/locales.ts';
import { loginThenBackTo } from '../../contract/login-path.ts';
import type { FormActionArgs, FormActionResult } from '../../contract/page-data.ts';
import { formFailure, setFlash } from './form-results.ts';

/** One form of the account page posted without JavaScript, told apart by its `intent` field. */
type AccountIntent = (args: FormActionArgs, request: FastifyRequest, reply: FastifyReply) => Promise<FormActionResult>;

/**
 * Every form of the account page posts to `/account` with a hidden `intent`; without one it is
 * Play's "take a break". Through `app.accountSettings`, as the JSON API.
 */
export default async function accountFormRoutes(app: FastifyInstance) {
  const settings = app.accountSettings;
  const accountPath = (locale: Locale) => localePath(locale, '/account');
  const done = (locale: Locale, what: string): FormActionResult => ({
    ok: true,
    redirect: `${accountPath(locale)}?done=${what}`,
  });
  /** A form's failure as the page shows it: the typed values (never a password) and the intent. */
  const failure = (intent: string, fields: Record<string, string>, reply: FastifyReply, error: unknown) => {
    const values: Record<string, string> = { intent };
    for (const [name, value] of Object.entries(fields))
      if (!/password/i.test(name) && name !== 'intent') values[name] = value;
    return formFailure(error, values, reply);
  };
  const intents: Record<string, AccountIntent> = {
    async resendVerification({ locale }, request) {
      await app.emailVerification.resend(request);
      return done(locale, 'verification-sent');
    },
    async profile({ locale, fields }, request) {
      await settings.updateProfile(request, { displayName: fields.displayName ?? '', locale: fields.locale ?? '' });
      return done(locale, 'profile-saved');
    },
    async password({ locale, fields }, request) {
      await settings.changePassword(request, fields.currentPassword ?? '', fields.newPassword ?? '');
      return done(locale, 'password-changed');
    },
    async email({ locale, fields }, request) {
      await settings.requestEmailChange(request, fields.currentPassword ?? '', fields.newEmail ?? '');
      return done(locale, 'email-change-sent');
    },
    async endSession({ locale, fields }, request) {
      await settings.endSession(request, fields.sessionId ?? '');
      return done(locale, 'session-ended');
    },
    async endOtherSessions({ locale }, request) {
      await settings.endOtherSessions(request);
      return done(locale, 'other-sessions-ended');
    },
    async deleteAccount({ locale, fields }, request, reply) {
      await settings.deleteAccount(request, fields.password ?? '');
      app.accounts.clearSessionCookie(request, reply);
      setFlash(request, reply, 'accountDeleted');
      return { ok: true, redirect: localePath(locale, '/') };
    },
  };

  app.formActions.define('account', async (args, request, reply) => {
    const { locale, fields } = args;
    if (!request.user) {
      return { ok: true, redirect: loginThenBackTo(locale, accountPath(locale)) };
    }
    const intent = fields.intent ?? 'selfExclusion';
    if (intent === 'selfExclusion') {
      const selfExclusion = app.formActions.get('selfExclusion');
      if (!selfExclusion) throw new Error("No form action named 'selfExclusion'.");
      return selfExclusion(args, request, reply);
    }
    const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
    if (!handler) return { ok: false, status: 400, values: { intent: '' }, errors: {}, message: 'UNKNOWN_INTENT' };
    try {
      return await handler(args, request, reply);
    } catch (error) {
      return failure(intent, fields, reply, error);
    }
  });

  // The link sent to the new address, without JavaScript: a button on /confirm-email.
  app.formActions.define('confirmEmail', async ({ locale, fields }, request, reply): Promise<FormActionResult> => {
    const page = localePath(locale, '/confirm-email');
    try {
      await app.accountLinks.limitUse(request);
      await settings.confirmEmailChange(fields.token ?? '');
      return { ok: true, redirect: `${page}?done=1` };
    } catch (error) {
      const code = error instanceof HttpError ? error.code : '';
      if (code === 'TOKEN_INVALID' || code === 'TOKEN_USED' || code === 'TOKEN_EXPIRED') {
        return { ok: true, redirect: `${page}?problem=${code.slice(6).toLowerCase()}` };
      }
      return formFailure(error, {}, reply);
    }
  });
}
