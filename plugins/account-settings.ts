import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountSettings } from '../lib/auth/account-settings.ts';
import { AccountTokens, type TokenProblem } from '../lib/auth/account-tokens.ts';
import type { AccountSettingsData, SessionView } from '../lib/auth/account-view.ts';
import type { FieldErrors } from '../lib/auth/validation.ts';
import { HttpError } from '../lib/http-error.ts';
import { localePath, type Locale } from '../lib/locales.ts';
import { loginThenBackTo } from '../lib/login-path.ts';
import type { FormActionArgs, FormActionResult, PublicUser } from '../lib/page-data.ts';
import { validationFailed } from '../routes/api/auth.ts';
import { tokenFailed } from '../routes/api/password-reset.ts';
import { formFailure, setFlash } from './account-forms.ts';

/** What the API routes and the account page's form posts share: each throws HttpError on refusal. */
export interface AccountSettingsFeature {
  readonly service: AccountSettings;
  updateProfile(request: FastifyRequest, input: { displayName?: unknown; locale?: unknown }): Promise<PublicUser>;
  changePassword(request: FastifyRequest, currentPassword: unknown, newPassword: unknown): Promise<{ endedSessions: number }>;
  /** Returns the address the link went to. */
  requestEmailChange(request: FastifyRequest, currentPassword: unknown, newEmail: unknown): Promise<string>;
  confirmEmailChange(token: unknown): Promise<PublicUser>;
  sessions(request: FastifyRequest, locale: Locale): Promise<SessionView[]>;
  endSession(request: FastifyRequest, sessionId: string): Promise<void>;
  endOtherSessions(request: FastifyRequest): Promise<number>;
  deleteAccount(request: FastifyRequest, password: unknown): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountSettings: AccountSettingsFeature;
  }
}

/** One form of the account page posted without JavaScript, told apart by its `intent` field. */
type AccountIntent = (args: FormActionArgs, request: FastifyRequest, reply: FastifyReply) => Promise<FormActionResult>;

function refused(fields: FieldErrors, status = 400): HttpError {
  if (status === 409) return new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists.', fields);
  return validationFailed(fields);
}

/**
 * Keeping an account, on `/account` and under `/api/account`: display name and language, the
 * password, the email address (changed through a link to the new address; the old one is told),
 * verification resends, login sessions, and deletion. Every change that needs the password
 * counts wrong passwords against the account's login-failure limit. Without JavaScript the
 * page's forms all post to `/account` (form action `account`) with a hidden `intent`; Play's
 * "take a break" form is the default, so it works as before.
 */
export default fp(
  async (app) => {
    const { accounts } = app;
    const service = new AccountSettings({
      db: app.db,
      accounts: accounts.service,
      tokens: new AccountTokens(app.db, accounts.clock),
    });
    const perUser = app.rateLimits.keyed('account-emails-user', app.rateLimits.settings.accountEmailsPerUser);
    const hours = Math.round(service.emailChangeTtlMs / 3_600_000);

    const userOf = (request: FastifyRequest): PublicUser => {
      if (!request.user) throw new HttpError(401, 'UNAUTHENTICATED', 'Log in to continue.');
      return request.user;
    };
    /** Runs a check of the password under the account's failure limit. */
    async function withPassword<T extends { ok: boolean; fields?: FieldErrors }>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
      const user = userOf(request);
      await accounts.limitPasswordChecks(request, user.email);
      const result = await run();
      if (!result.ok && result.fields && Object.values(result.fields).includes('incorrect_password')) {
        await accounts.limitPasswordChecks(request, user.email, true);
      }
      return result;
    }

    const feature: AccountSettingsFeature = {
      service,
      async updateProfile(request, input) {
        const result = await service.updateProfile(userOf(request).id, input);
        if (!result.ok) throw refused(result.fields);
        return result.value;
      },
      async changePassword(request, currentPassword, newPassword) {
        const user = userOf(request);
        const result = await withPassword(request, () => service.changePassword(user, request.sessionId, currentPassword, newPassword));
        if (!result.ok) throw refused(result.fields);
        request.log.info({ user: user.id, endedSessions: result.value.endedSessions }, 'password changed; other sessions ended');
        return result.value;
      },
      async requestEmailChange(request, currentPassword, newEmail) {
        const user = userOf(request);
        await perUser(request, user.id);
        const result = await withPassword(request, () => service.requestEmailChange(user, currentPassword, newEmail));
        if (!result.ok) throw refused(result.fields, result.status);
        app.mail.send('confirmEmailChange', user.locale, result.value.email, {
          name: user.displayName,
          link: app.mail.link(user.locale, '/confirm-email', result.value.token),
          hours,
        });
        return result.value.email;
      },
      async confirmEmailChange(token) {
        const result = await service.confirmEmailChange(token);
        if (!result.ok && result.problem === 'taken') {
          throw new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists.', { email: 'taken' });
        }
        if (!result.ok) throw tokenFailed(result.problem as TokenProblem);
        app.log.info({ user: result.user.id }, 'email address changed');
        // The old address is told, so its owner learns of a change they did not make.
        app.mail.send('emailChanged', result.user.locale, result.oldEmail, { name: result.user.displayName, newEmail: result.user.email });
        return result.user;
      },
      sessions(request, locale) {
        return service.sessions(userOf(request).id, request.sessionId, locale);
      },
      async endSession(request, sessionId) {
        if (!(await service.endSession(userOf(request).id, sessionId))) {
          throw new HttpError(404, 'SESSION_NOT_FOUND', 'No such session on this account.');
        }
      },
      endOtherSessions(request) {
        return service.endOtherSessions(userOf(request).id, request.sessionId);
      },
      async deleteAccount(request, password) {
        const user = userOf(request);
        const result = await withPassword(request, () => service.deleteAccount(user.id, password));
        if (!result.ok && 'onBreakUntil' in result) {
          throw new HttpError(409, 'DELETION_DURING_BREAK', `The account can be deleted once the break ends (${result.onBreakUntil}).`);
        }
        if (!result.ok) throw refused(result.fields);
        request.log.info({ user: user.id }, 'account deleted; play sessions kept anonymised');
      },
    };
    app.decorate('accountSettings', feature);

    app.accountLinks.define('/confirm-email', (token) => service.checkEmailChange(token));

    // The account page: Play's data (play sessions, breaks) and this feature's.
    app.pageData.extend('account', async ({ user, locale, sessionId }): Promise<AccountSettingsData> => {
      if (!user) return { accountSettings: { pendingEmail: null, sessions: [] } };
      const [pendingEmail, sessions] = await Promise.all([service.pendingEmail(user.id), service.sessions(user.id, sessionId ?? null, locale)]);
      return { accountSettings: { pendingEmail, sessions } };
    });

    const accountPath = (locale: Locale) => localePath(locale, '/account');
    const done = (locale: Locale, what: string): FormActionResult => ({ ok: true, redirect: `${accountPath(locale)}?done=${what}` });
    /** A form's failure as the page shows it: the typed values (never a password) and the intent. */
    const failure = (intent: string, fields: Record<string, string>, reply: FastifyReply, error: unknown) => {
      const values: Record<string, string> = { intent };
      for (const [name, value] of Object.entries(fields)) if (!/password/i.test(name) && name !== 'intent') values[name] = value;
      return formFailure(error, values, reply);
    };
    const intents: Record<string, AccountIntent> = {
      async resendVerification({ locale }, request) {
        await app.emailVerification.resend(request);
        return done(locale, 'verification-sent');
      },
      async profile({ locale, fields }, request) {
        await feature.updateProfile(request, { displayName: fields.displayName ?? '', locale: fields.locale ?? '' });
        return done(locale, 'profile-saved');
      },
      async password({ locale, fields }, request) {
        await feature.changePassword(request, fields.currentPassword ?? '', fields.newPassword ?? '');
        return done(locale, 'password-changed');
      },
      async email({ locale, fields }, request) {
        await feature.requestEmailChange(request, fields.currentPassword ?? '', fields.newEmail ?? '');
        return done(locale, 'email-change-sent');
      },
      async endSession({ locale, fields }, request) {
        await feature.endSession(request, fields.sessionId ?? '');
        return done(locale, 'session-ended');
      },
      async endOtherSessions({ locale }, request) {
        await feature.endOtherSessions(request);
        return done(locale, 'other-sessions-ended');
      },
      async deleteAccount({ locale, fields }, request, reply) {
        await feature.deleteAccount(request, fields.password ?? '');
        accounts.clearSessionCookie(request, reply);
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
        await feature.confirmEmailChange(fields.token ?? '');
        return { ok: true, redirect: `${page}?done=1` };
      } catch (error) {
        const code = error instanceof HttpError ? error.code : '';
        if (code === 'TOKEN_INVALID' || code === 'TOKEN_USED' || code === 'TOKEN_EXPIRED') {
          return { ok: true, redirect: `${page}?problem=${code.slice(6).toLowerCase()}` };
        }
        return formFailure(error, {}, reply);
      }
    });
  },
  {
    name: 'account-settings',
    dependencies: ['accounts', 'account-links', 'email-verification', 'mail', 'form-actions', 'page-data', 'play'],
  },
);
