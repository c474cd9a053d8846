import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { localePath, type Locale } from '../lib/locales.ts';
import type { FormActionArgs, FormActionResult } from '../lib/page-data.ts';
import type { AccountSettingsData } from '../lib/auth/account-view.ts';
import accountSettingsRoutes from '../routes/api/account-settings.ts';
import { formFailure } from './account-forms.ts';

/** One form of the account page posted without JavaScript, told apart by its `intent` field. */
type AccountIntent = (args: FormActionArgs, request: FastifyRequest, reply: FastifyReply) => Promise<FormActionResult>;

/**
 * Keeping an account, on `/account` and under `/api/account`: verification status and resends
 * (more below as they come). The account page has several forms; without JavaScript they all
 * post to `/account` (form action `account`), each with a hidden `intent`; Play's "take a break"
 * form is the default, so it works as before.
 */
export default fp(
  async (app) => {
    await app.register(accountSettingsRoutes, { prefix: '/api/account' });

    // The account page: Play's data (play sessions, breaks) and this feature's.
    app.pageData.extend('account', async ({ user }): Promise<AccountSettingsData> => {
      if (!user) return { accountSettings: { pendingEmail: null, sessions: [] } };
      return { accountSettings: { pendingEmail: null, sessions: [] } };
    });

    const accountPath = (locale: Locale) => localePath(locale, '/account');
    const done = (locale: Locale, what: string): FormActionResult => ({ ok: true, redirect: `${accountPath(locale)}?done=${what}` });

    const intents: Record<string, AccountIntent> = {
      async resendVerification({ locale }, request, reply) {
        try {
          await app.emailVerification.resend(request);
          return done(locale, 'verification-sent');
        } catch (error) {
          return formFailure(error, { intent: 'resendVerification' }, reply);
        }
      },
    };

    app.formActions.define('account', async (args, request, reply) => {
      const { locale, fields } = args;
      if (!request.user) {
        return { ok: true, redirect: `${localePath(locale, '/login')}?redirect=${encodeURIComponent(accountPath(locale))}` };
      }
      const intent = fields.intent ?? 'selfExclusion';
      if (intent === 'selfExclusion') {
        const selfExclusion = app.formActions.get('selfExclusion');
        if (!selfExclusion) throw new Error("No form action named 'selfExclusion'.");
        return selfExclusion(args, request, reply);
      }
      const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
      if (!handler) return { ok: false, status: 400, values: { intent: '' }, errors: {}, message: 'UNKNOWN_INTENT' };
      return handler(args, request, reply);
    });
  },
  { name: 'account-settings', dependencies: ['accounts', 'email-verification', 'form-actions', 'page-data', 'play'] },
);
