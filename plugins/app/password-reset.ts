import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PasswordResets, type ResetResult } from '../../lib/auth/password-reset.ts';
import { checkEmail } from '../../lib/auth/validation.ts';
import { limitKey } from '../../lib/rate-limit/settings.ts';
import { validationFailed } from '../../lib/http/validation.ts';

export interface PasswordResetFeature {
  readonly service: PasswordResets;
  limitPerIp: (request: FastifyRequest) => Promise<void>;
  /** Returns before the lookup and the email: the same answer and work for every address. */
  request(request: FastifyRequest, rawEmail: unknown): Promise<void>;
  /** Sets the new password; the address that proved the mailbox becomes one its owner used. */
  reset(request: FastifyRequest, token: unknown, password: unknown): Promise<ResetResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    passwordResets: PasswordResetFeature;
  }
}

/** Forgotten passwords; the operations are lib/auth/operations.ts. */
export default fp(
  async (app) => {
    const service = new PasswordResets(app.accountLinks.dependencies);
    const { settings } = app.rateLimits;
    const perIp = app.rateLimits.keyed('password-reset-ip', settings.passwordResetPerIp);
    const emailsPerAddress = app.rateLimits.quota('password-reset-email', settings.passwordResetEmailsPerAddress);
    const limitPerIp = (request: FastifyRequest) => perIp(request, normalizeIP(request.ip));
    const minutes = Math.round(service.ttlMs / 60_000);

    const feature: PasswordResetFeature = {
      service,
      limitPerIp,
      async request(request, rawEmail) {
        const email = checkEmail(rawEmail);
        if ('code' in email) throw validationFailed({ email: email.code });
        // The link is written after the answer: on a full disk, say so now (and count nothing).
        app.storageState.refuseWhileFull();
        // Past the cap the answer stays the same (unknown addresses count too, so it reveals
        // nothing) and no email goes out, so strangers cannot fill the owner's mailbox.
        if (!(await emailsPerAddress(request, limitKey(email.value)))) {
          request.log.info('password reset: this address had its emails for the hour; none sent');
          return;
        }
        app.jobs.run('password-reset', async () => {
          const issued = await service.issue(email.value);
          if (!issued) return;
          const { user, token } = issued;
          app.mail.send('passwordReset', user.locale, user.email, {
            name: user.display_name,
            link: app.mail.link(user.locale, '/reset-password', token),
            minutes,
          });
        });
      },
      async reset(request, token, password) {
        const result = await service.reset(token, password, request.headers['user-agent']);
        if (result.ok) await app.accounts.rememberAddress(request, result.session.user.id);
        return result;
      },
    };
    app.decorate('passwordResets', feature);
    app.accountLinks.define('reset-password', (token) => service.check(token));
  },
  {
    name: 'password-reset',
    dependencies: ['accounts', 'account-links', 'mail', 'background-jobs'],
  },
);
