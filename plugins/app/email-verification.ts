import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { EmailVerifications } from '../../lib/auth/email-verification.ts';
import { HttpError } from '../../contract/http-error.ts';
import type { PublicUser } from '../../contract/page-data.ts';

export interface EmailVerificationFeature {
  readonly service: EmailVerifications;
  /** Sends a new link to the logged-in user's address: 409 when it is verified already, 429 past the limit. */
  resend(request: FastifyRequest): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    emailVerification: EmailVerificationFeature;
  }
}

/** Registration sends a link; REQUIRE_VERIFIED_EMAIL_FOR_PLAY makes `app.play.start` refuse without. */
export default fp(
  async (app) => {
    const { accounts } = app;
    const service = new EmailVerifications(app.accountLinks.dependencies);
    const hours = Math.round(service.ttlMs / 3_600_000);

    function sendLink(user: Pick<PublicUser, 'id' | 'email' | 'displayName' | 'locale'>) {
      app.jobs.run('email-verification', async () => {
        const token = await service.issue(user);
        app.mail.send('verifyEmail', user.locale, user.email, {
          name: user.displayName,
          link: app.mail.link(user.locale, '/verify-email', token),
          hours,
        });
      });
    }

    accounts.onRegistered((user) => sendLink(user));

    app.decorate('emailVerification', {
      service,
      async resend(request) {
        const user = request.user;
        if (!user) throw new HttpError(401, 'UNAUTHENTICATED', 'Log in to continue.');
        if (user.emailVerified)
          throw new HttpError(409, 'EMAIL_ALREADY_VERIFIED', 'This email address is verified already.');
        // The link is written after the answer: on a full disk, say so now rather than "sent".
        app.storageState.refuseWhileFull();
        await app.accountLinks.limitEmailsPerUser(request, user.id);
        sendLink(user);
      },
    } satisfies EmailVerificationFeature);

    app.accountLinks.define('verify-email', (token) => service.check(token));
  },
  {
    name: 'email-verification',
    dependencies: ['accounts', 'account-links', 'mail', 'background-jobs'],
  },
);
