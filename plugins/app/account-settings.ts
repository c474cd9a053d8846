import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AccountSettings } from '../../lib/auth/account-settings.ts';
import type { TokenProblem } from '../../lib/auth/account-tokens.ts';
import type { AccountSettingsData, SessionView } from '../../contract/account-view.ts';
import type { FieldErrors } from '../../lib/auth/validation.ts';
import { HttpError } from '../../contract/http-error.ts';
import type { Locale } from '../../contract/locales.ts';
import type { PageDataArgs, PublicUser } from '../../contract/page-data.ts';
import type { AccountPageData } from '../../contract/play.ts';
import type { SeoData } from '../../contract/seo.ts';
import { tokenFailed } from '../../lib/http/link-errors.ts';
import { validationFailed } from '../../lib/http/validation.ts';

/** What the API routes and the account page's form posts share: each throws HttpError on refusal. */
export interface AccountSettingsFeature {
  readonly service: AccountSettings;
  updateProfile(request: FastifyRequest, input: { displayName?: unknown; locale?: unknown }): Promise<PublicUser>;
  changePassword(
    request: FastifyRequest,
    currentPassword: unknown,
    newPassword: unknown,
  ): Promise<{ endedSessions: number }>;
  /** Returns the address the link went to. */
  requestEmailChange(request: FastifyRequest, currentPassword: unknown, newEmail: unknown): Promise<string>;
  confirmEmailChange(token: unknown): Promise<PublicUser>;
  sessions(request: FastifyRequest, locale: Locale): Promise<SessionView[]>;
  endSession(request: FastifyRequest, sessionId: string): Promise<void>;
  endOtherSessions(request: FastifyRequest): Promise<number>;
  deleteAccount(request: FastifyRequest, password: unknown): Promise<void>;
  /** The account page's data: its play part (app.play) and its settings part. */
  accountPage(args: PageDataArgs): Promise<AccountPageData & AccountSettingsData & { seo: SeoData }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountSettings: AccountSettingsFeature;
  }
}

function refused(fields: FieldErrors, status = 400): HttpError {
  if (status === 409) return new HttpError(409, 'EMAIL_TAKEN', 'An account with this email already exists.', fields);
  return validationFailed(fields);
}

/** Routes: routes/api/account-settings.ts, client/pages/account.server.ts. */
export default fp(
  async (app) => {
    const { accounts } = app;
    const service = new AccountSettings(app.accountLinks.dependencies);
    const hours = Math.round(service.ttlMs / 3_600_000);

    const userOf = (request: FastifyRequest): PublicUser => {
      if (!request.user) throw new HttpError(401, 'UNAUTHENTICATED', 'Log in to continue.');
      return request.user;
    };
    async function withPassword<T extends { ok: boolean; fields?: FieldErrors }>(
      request: FastifyRequest,
      run: () => Promise<T>,
    ): Promise<T> {
      const user = userOf(request);
      const throttle = await accounts.passwordThrottle(request, user.email);
      return throttle.attempt(run, {
        failed: (result) =>
          !result.ok && !!result.fields && Object.values(result.fields).includes('incorrect_password'),
        proved: (result) => result.ok,
      });
    }

    const settingsOf = async ({ user, locale, sessionId }: PageDataArgs): Promise<AccountSettingsData> => {
      if (!user) return { accountSettings: { pendingEmail: null, sessions: [] } };
      const [pendingEmail, sessions] = await Promise.all([
        service.pendingEmail(user.id),
        service.sessions(user.id, sessionId ?? null, locale),
      ]);
      return { accountSettings: { pendingEmail, sessions } };
    };

    const feature: AccountSettingsFeature = {
      service,
      async updateProfile(request, input) {
        const result = await service.updateProfile(userOf(request).id, input);
        if (!result.ok) throw refused(result.fields);
        return result.value;
      },
      async changePassword(request, currentPassword, newPassword) {
        const user = userOf(request);
        const result = await withPassword(request, () =>
          service.changePassword(user, request.sessionId, currentPassword, newPassword),
        );
        if (!result.ok) throw refused(result.fields);
        request.log.info(
          { user: user.id, endedSessions: result.value.endedSessions },
          'password changed; other sessions ended',
        );
        return result.value;
      },
      async requestEmailChange(request, currentPassword, newEmail) {
        const user = userOf(request);
        await app.accountLinks.limitEmailsPerUser(request, user.id);
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
        app.mail.send('emailChanged', result.user.locale, result.oldEmail, {
          name: result.user.displayName,
          newEmail: result.user.email,
        });
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
          throw new HttpError(
            409,
            'DELETION_DURING_BREAK',
            `The account can be deleted once the break ends (${result.onBreakUntil}).`,
          );
        }
        if (!result.ok) throw refused(result.fields);
        request.log.info({ user: user.id }, 'account deleted; play sessions kept anonymised');
      },
      async accountPage(args) {
        const [play, settings] = await Promise.all([app.play.accountPage(args), settingsOf(args)]);
        return { ...play, ...settings };
      },
    };
    app.decorate('accountSettings', feature);

    app.accountLinks.define('confirm-email', (token) => service.checkEmailChange(token));
  },
  {
    name: 'account-settings',
    dependencies: ['accounts', 'account-links', 'email-verification', 'mail', 'play'],
  },
);
