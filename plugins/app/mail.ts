import { resolve } from 'node:path';
import fp from 'fastify-plugin';
import { localePath, type Locale } from '../../contract/locales.ts';
import { Mailer } from '../../lib/mail/mailer.ts';
import { composeMail, type MailKind, type MailValues } from '../../lib/mail/messages.ts';

export interface MailPluginOptions {
  /** Waits between send attempts (tests shorten them). */
  retryDelaysMs?: readonly number[];
}

export interface Mail {
  readonly mailer: Mailer;
  /** Composes the message in the recipient's language and queues it (sent off the request, retried). */
  send(kind: MailKind, locale: Locale, to: string, values: MailValues): void;
  /** An absolute link to a page of the site from PUBLIC_URL, with `?token=`. */
  link(locale: Locale, path: string, token: string): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: Mail;
  }
}

/** nodemailer through SMTP_URL, or `.eml` files under DATA_DIR/outbox/ without it (decision 0009). */
export default fp<MailPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const outboxDir = resolve(config.dataDir, 'outbox');
    const mailer = new Mailer({
      smtpUrl: config.smtpUrl,
      outboxDir,
      from: config.mailFrom,
      log: app.log.child({ component: 'mail' }),
      jobs: app.jobs,
      ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
      tracing: app.hasDecorator('tracing') ? app.tracing : undefined,
    });
    if (mailer.mode === 'outbox') {
      app.log.info(
        { outboxDir },
        'account emails are written as .eml files to the outbox folder (SMTP_URL is not set)',
      );
    } else {
      app.log.info({ smtp: new URL(config.smtpUrl!).host }, 'account emails are sent through SMTP_URL');
    }

    app.decorate('mail', {
      mailer,
      send(kind, locale, to, values) {
        mailer.send(composeMail(kind, locale, to, values));
      },
      link(locale, path, token) {
        return `${config.publicUrl}${localePath(locale, path)}?token=${encodeURIComponent(token)}`;
      },
    } satisfies Mail);
    // Retry waits end early on shutdown; a message being sent gets to finish first.
    app.addHook('onClose', async () => {
      await app.jobs.stop();
      mailer.close();
    });
  },
  { name: 'mail', dependencies: ['config', 'background-jobs'] },
);
