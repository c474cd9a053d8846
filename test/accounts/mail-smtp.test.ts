import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import t from 'tap';
import { createTestDatabase } from '../helpers/database.ts';
import { parseMessage, type OutboxMessage } from '../helpers/outbox.ts';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';

/** A local SMTP server standing in for the operator's mail provider. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: OutboxMessage[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          received.push(parseMessage(raw, parsed));
          waiting.splice(0).forEach((wake) => wake());
          callback();
        }, callback);
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Resolves once `count` messages have arrived. */
    async until(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const database = await createTestDatabase('sqlite');
t.teardown(() => database.close());

/**
 * An app sending through `smtp`, with one registered account whose verification email is already
 * out of the way (received and logs cleared); `startLogs` are the lines written until then.
 */
async function appWith(
  smtp: { url: string; received: unknown[] },
  logs: Record<string, unknown>[],
  retryDelaysMs: number[] = [],
) {
  const app = await buildTestApp({
    database,
    env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://play.asdas.example', MAIL_FROM: 'Asdas <accounts@asdas.example>' },
    mail: { retryDelaysMs },
    logs,
  });
  const body = validRegistration({ locale: 'en', displayName: 'Ann' });
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (registered.statusCode !== 201) throw new Error(registered.body);
  await app.jobs.settled();
  smtp.received.length = 0;
  const startLogs = logs.splice(0);
  return { app, email: String(body.email), startLogs };
}
const ask = (app: Awaited<ReturnType<typeof appWith>>['app'], email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });

t.test('a reset email through SMTP_URL: From, To, language, text and HTML, link from PUBLIC_URL', async (t) => {
  const smtp = await startSmtp();
  t.teardown(smtp.close);
  const logs: Record<string, unknown>[] = [];
  const { app, email, startLogs } = await appWith(smtp, logs);
  t.teardown(() => app.close());
  t.ok(
    startLogs.some((line) => line.msg === 'account emails are sent through SMTP_URL'),
    'the start says where emails go',
  );

  t.equal((await ask(app, email)).statusCode, 202);
  await smtp.until(1);
  const [message] = smtp.received;
  t.equal(message!.to, email);
  t.match(message!.parsed.from?.text, 'accounts@asdas.example');
  t.equal(message!.subject, 'Choose a new password for Asdas');
  t.equal(message!.language, 'en');
  t.match(message!.text, /Hello Ann,/);
  t.match(message!.text, /works once, for 30 minutes/);
  t.match(message!.links[0], /^https:\/\/play\.asdas\.example\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
  t.match(message!.html, /href="https:\/\/play\.asdas\.example\/reset-password\?token=/);
  await app.jobs.settled();
  t.ok(
    logs.some((line) => line.msg === 'email sent' && line.kind === 'passwordReset'),
    'logged as sent',
  );
  t.notOk(JSON.stringify(logs).includes(email), 'the address is not in the logs');
});

t.test('the answer does not wait for the mail server', async (t) => {
  let holding = false;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived: () => void = () => {};
  const arriving = new Promise<void>((resolve) => (arrived = resolve));
  const smtp = await startSmtp({
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (!holding) return callback();
        arrived();
        void held.then(() => callback());
      });
    },
  });
  t.teardown(smtp.close);
  const { app, email } = await appWith(smtp, []);
  holding = true;
  t.teardown(() => app.close());

  const answer = await ask(app, email);
  t.equal(answer.statusCode, 202, 'answered');
  await arriving;
  t.pass('the message reached the server after the answer, and is still held there');
  release();
  await app.jobs.settled();
});

t.test('a refused send is retried and logged, never a 500', async (t) => {
  let refusals = 0;
  const smtp = await startSmtp({
    onRcptTo(_address, _session, callback) {
      if (refusals > 0) {
        refusals -= 1;
        const error = new Error('mailbox busy, try later') as Error & { responseCode: number };
        error.responseCode = 451;
        callback(error);
        return;
      }
      callback();
    },
  });
  t.teardown(smtp.close);
  const logs: Record<string, unknown>[] = [];
  const { app, email } = await appWith(smtp, logs, [10, 10]);
  t.teardown(() => app.close());
  refusals = 1;

  t.equal((await ask(app, email)).statusCode, 202);
  await smtp.until(1);
  await app.jobs.settled();
  t.equal(smtp.received.length, 1, 'delivered on the second attempt');
  const retry = logs.find((line) => line.msg === 'email could not be sent; retrying');
  t.ok(retry, 'the failure is logged');
  t.equal(retry?.level, 40, 'as a warning');
  t.equal(retry?.attempt, 1);
  t.ok(logs.some((line) => line.msg === 'email sent'));
});

t.test(
  'an unreachable mail server: every attempt fails, the error is logged, the visitor still gets 202',
  async (t) => {
    const smtp = await startSmtp();
    await smtp.close();
    const logs: Record<string, unknown>[] = [];
    const { app, email } = await appWith(smtp, logs, [5, 5]);
    t.teardown(() => app.close());

    t.equal((await ask(app, email)).statusCode, 202);
    await app.jobs.settled();
    t.equal(logs.filter((line) => line.msg === 'email could not be sent; retrying').length, 2, 'two retries');
    const final = logs.find((line) => line.msg === 'email could not be sent; giving up');
    t.ok(final, 'the last failure is an error');
    t.equal(final?.level, 50);
    t.equal(final?.attempts, 3);
    t.match(final?.to, /^u\*\*\*@example\.com$/, 'the address is masked');
  },
);
