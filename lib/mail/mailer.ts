import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { BackgroundJobs } from '../background-jobs.ts';
import type { Tracing } from '../tracing.ts';
import type { ComposedMail } from './messages.ts';

export interface MailerOptions {
  /** Unset: `.eml` files to `outboxDir`. */
  smtpUrl: string | undefined;
  outboxDir: string;
  from: string;
  log: FastifyBaseLogger;
  jobs: BackgroundJobs;
  /** One more attempt than delays. */
  retryDelaysMs?: readonly number[];
  /** While tracing is on: a span per attempt, a child of the request's that sent the email. */
  tracing?: Tracing | undefined;
}

const defaultRetryDelaysMs = [2_000, 10_000, 60_000] as const;

/** `a***@example.com`: enough to tell messages apart in a log, not the address. */
function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at <= 0 ? '***' : `${address[0]}***${address.slice(at)}`;
}

/**
 * Account emails through nodemailer: SMTP with SMTP_URL, else `.eml` files in DATA_DIR/outbox/
 * (decision 0009). Failures are retried and logged, never shown to the visitor.
 */
export class Mailer {
  readonly mode: 'smtp' | 'outbox';
  readonly outboxDir: string;
  readonly #smtpUrl: string | undefined;
  #transport: Promise<Transporter> | undefined;
  readonly #from: string;
  readonly #log: FastifyBaseLogger;
  readonly #jobs: BackgroundJobs;
  readonly #delays: readonly number[];
  readonly #tracing: Tracing | undefined;
  #written = 0;

  constructor(options: MailerOptions) {
    this.mode = options.smtpUrl ? 'smtp' : 'outbox';
    this.outboxDir = options.outboxDir;
    this.#from = options.from;
    this.#log = options.log;
    this.#jobs = options.jobs;
    this.#delays = options.retryDelaysMs ?? defaultRetryDelaysMs;
    this.#tracing = options.tracing;
    this.#smtpUrl = options.smtpUrl;
  }

  /** nodemailer is loaded with the first email, not at start (decision 0041). */
  #transporter(): Promise<Transporter> {
    this.#transport ??= import('nodemailer').then(({ default: { createTransport } }) =>
      this.#smtpUrl
        ? createTransport({
            url: this.#smtpUrl,
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000,
          })
        : createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
    );
    return this.#transport;
  }

  /** Returns at once; delivery runs in the background. */
  send(mail: ComposedMail): void {
    this.#jobs.run(`mail:${mail.kind}`, (signal) => this.deliver(mail, signal));
  }

  /** False when every attempt failed. */
  async deliver(mail: ComposedMail, signal?: AbortSignal): Promise<boolean> {
    const context = { kind: mail.kind, to: maskAddress(mail.to) };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await (this.#tracing
          ? this.#tracing.inSpan(
              'send email',
              {
                kind: this.mode === 'smtp' ? 'client' : 'internal',
                attributes: {
                  'asdas.email.kind': mail.kind,
                  'asdas.email.transport': this.mode,
                  'asdas.email.attempt': attempt,
                },
              },
              () => this.#attempt(mail, context),
            )
          : this.#attempt(mail, context));
        return true;
      } catch (error) {
        const wait = this.#delays[attempt - 1];
        if (wait === undefined || signal?.aborted) {
          this.#log.error({ err: error, ...context, attempts: attempt }, 'email could not be sent; giving up');
          return false;
        }
        this.#log.warn({ err: error, ...context, attempt, retryInMs: wait }, 'email could not be sent; retrying');
        try {
          await sleep(wait, undefined, signal ? { signal } : {});
        } catch {
          this.#log.error({ ...context, attempts: attempt }, 'email not sent: the server is shutting down');
          return false;
        }
      }
    }
  }

  async #attempt(mail: ComposedMail, context: { kind: string; to: string }): Promise<void> {
    const message = {
      from: this.#from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: { 'Content-Language': mail.locale },
    };
    if (this.mode === 'smtp') {
      const info = (await (await this.#transporter()).sendMail(message)) as { messageId?: string };
      this.#log.info({ ...context, messageId: info.messageId }, 'email sent');
      return;
    }
    const info = (await (await this.#transporter()).sendMail(message)) as { message: Buffer };
    await mkdir(this.outboxDir, { recursive: true });
    // Sortable by time; written under another name first, so a reader never sees half a file.
    this.#written += 1;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = `${stamp}-${String(this.#written).padStart(6, '0')}-${mail.kind}-${randomBytes(4).toString('hex')}.eml`;
    const file = join(this.outboxDir, name);
    try {
      await writeFile(`${file}.tmp`, info.message);
      await rename(`${file}.tmp`, file);
    } catch (error) {
      await rm(`${file}.tmp`, { force: true });
      throw error;
    }
    this.#log.info({ ...context, file }, 'email written to the outbox (SMTP_URL is not set)');
  }

  close(): void {
    void this.#transport?.then((transport) => transport.close());
  }
}
