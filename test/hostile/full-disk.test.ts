/**
 * A full disk, as a visitor and an operator meet it: every write answers 503 STORAGE_FULL with
 * Retry-After (the translated page to a form posted without JavaScript), never a 500; the cause is
 * logged once; /readyz fails until a write goes through again; once space is freed the service
 * writes again by itself and nothing written before is lost or corrupted. SQLite with DATA_DIR on
 * a small tmpfs; PostgreSQL with its tables in a tablespace on one; an email written to a full
 * outbox leaves no partial file. Needs root (mount).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  rmdirSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import t, { type Test } from 'tap';
import { BackgroundJobs } from '../../lib/background-jobs.ts';
import { Mailer } from '../../lib/mail/mailer.ts';
import { composeMail } from '../../lib/mail/messages.ts';
import { collectingLogger, startTestApp, type TestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';
import { postgresUrl } from '../helpers/database.ts';
import { formClient } from '../helpers/forms.ts';

const origin = 'http://localhost:3000';
const storageFullLog = /the database cannot write: its storage is full/;

/** Why a small tmpfs cannot be mounted here (not root), or undefined when it can. */
function cannotMount(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-mount-check-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    execFileSync('umount', [dir]);
    return undefined;
  } catch (error) {
    return `a small tmpfs cannot be mounted (root needed): ${(error as Error).message.split('\n')[0]}`;
  } finally {
    rmdirSync(dir);
  }
}
const skip = cannotMount();

/** A tmpfs of `megabytes` mounted on a new folder, unmounted at teardown. */
function smallDisk(t: Test, megabytes: number, owner?: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  t.teardown(() => {
    execFileSync('umount', ['-l', dir]);
    rmdirSync(dir);
  });
  return dir;
}

/** Writes zeros into `dir` until the disk is full; returns the file to delete to free it. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

/** What both engines must do; `freeSpace` frees the disk, `integrity` checks the stored data. */
async function fullDiskBehaviour(
  t: Test,
  started: TestApp,
  disk: string,
  integrity: (accounts: number) => Promise<void>,
  /** SQLite has no page left to write into; PostgreSQL may still fit a row into one it has. */
  strict: boolean,
) {
  const { app, logs } = started;
  // A client address per request: the production per-address limits are not what is tested.
  let client = 0;
  const api = (url: string, payload: Record<string, unknown>) => {
    client += 1;
    return app.inject({ method: 'POST', url, payload, remoteAddress: `10.40.${client >> 8}.${client & 255}` });
  };
  const { post, postJson } = formClient(app, origin);

  const saved: Array<Record<string, unknown>> = [];
  let token = '';
  for (let i = 0; i < 5; i += 1) {
    const body = validRegistration();
    const response = await api('/api/auth/register', body);
    t.equal(response.statusCode, 201, 'registered while there is room');
    token = /token=([^;]+)/.exec(String(response.headers['set-cookie']))?.[1] ?? '';
    saved.push(body);
  }
  await app.jobs.settled(); // their emails written while there is room
  const filler = fill(disk);

  // A reset link is written after the answer: its failure starts the spell, logged the same way.
  const reset = await api('/api/auth/password-reset', { email: saved[0]!.email });
  t.equal(reset.statusCode, 202, 'a reset asked for before the disk is known to be full: accepted');
  await app.jobs.settled();
  if (strict) {
    const first = logs.find((line) => storageFullLog.test(String(line.msg)));
    t.match(first, { job: 'password-reset', engine: 'sqlite' }, 'its link could not be written: the cause, once');
  }

  // A row may still fit in a page the database has already allocated: 201 or 503, never a 500.
  const answers = new Map<number, number>();
  for (let i = 0; i < 60; i += 1) {
    const body = validRegistration();
    const response = await api('/api/auth/register', body);
    answers.set(response.statusCode, (answers.get(response.statusCode) ?? 0) + 1);
    if (response.statusCode === 201) saved.push(body);
    else if (response.json().code !== 'STORAGE_FULL' || response.headers['retry-after'] !== '30')
      t.fail(`registration ${i}: ${response.statusCode} ${response.body}`);
  }
  const refused = answers.get(503) ?? 0;
  t.ok(strict ? refused === 60 : refused > 0, `registrations refused for want of space: ${refused} of 60`);
  t.same(
    [...answers.keys()].filter((status) => status !== 201 && status !== 503),
    [],
    'no other answer',
  );
  const login = await api('/api/auth/login', { email: saved[0]!.email, password: saved[0]!.password });
  if (strict || login.statusCode !== 200) {
    t.equal(login.statusCode, 503, 'a login, which writes a session: 503');
    t.equal(login.json().code, 'STORAGE_FULL', 'saying why, not DATABASE_UNAVAILABLE');
  }

  const page = await post('/th/registration', {
    email: `form.${randomBytes(3).toString('hex')}@example.com`,
    displayName: 'Somchai',
    password: 'a long passphrase 42',
    acceptTerms: 'on',
    confirmAge: 'on',
  });
  t.equal(page.statusCode, 503, 'a form posted without JavaScript');
  t.match(page.headers['content-type'], /text\/html/);
  t.equal(page.headers['retry-after'], '30');
  t.match(page.body, /<html lang="th">/);
  t.match(page.body, /ขณะนี้ไม่สามารถบันทึกการเปลี่ยนแปลงได้/, 'the translated notice');

  const resetAgain = await api('/api/auth/password-reset', { email: saved[1]!.email });
  t.equal(resetAgain.statusCode, 503, 'a reset asked for once the disk is known to be full: 503, not "sent"');
  t.equal(resetAgain.json().code, 'STORAGE_FULL');
  const resend = await app.inject({
    method: 'POST',
    url: '/api/account/verification',
    headers: { authorization: `Bearer ${token}` },
  });
  t.match(resend, { statusCode: 503, body: /STORAGE_FULL/ }, 'a new verification link: 503, not "sent"');
  const forgot = await post('/forgot-password', { email: String(saved[1]!.email) });
  t.equal(forgot.statusCode, 503, 'the same without JavaScript');
  t.match(forgot.body, /Changes cannot be saved right now/, 'in English');

  const withScript = await postJson('/registration', {
    email: `script.${randomBytes(3).toString('hex')}@example.com`,
    displayName: 'Ann',
    password: 'a long passphrase 42',
    acceptTerms: 'on',
    confirmAge: 'on',
  });
  t.equal(withScript.statusCode, 503, 'the same form posted with JavaScript');
  t.match(withScript.json(), { statusCode: 503, code: 'STORAGE_FULL' }, 'answered as JSON');

  const read = await app.inject({ url: '/asdas', headers: { 'user-agent': 'Mozilla/5.0' } });
  t.equal(read.statusCode, 200, 'pages are still read');
  const notReady = await app.inject({ url: '/readyz' });
  t.equal(notReady.statusCode, 503, '/readyz fails while nothing can be written');
  t.equal(notReady.json().checks.database, 'failing');
  const causes = logs.filter((line) => storageFullLog.test(String(line.msg)));
  t.equal(causes.length, 1, 'the cause is logged once');
  t.equal(causes[0]?.engine, strict ? 'sqlite' : 'postgresql', 'naming the engine');
  t.notOk(
    logs.some((line) =>
      /cannot rollback|request failed|background job failed/.test(String(line.msg) + JSON.stringify(line.err ?? '')),
    ),
    'no rollback error hides it, no request failed as a 500, no job failed otherwise',
  );

  rmSync(filler);
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'ready again once a write goes through');
  t.ok(
    logs.some((line) => /the database writes again/.test(String(line.msg))),
    'and the log says so',
  );
  const after = validRegistration();
  t.equal((await api('/api/auth/register', after)).statusCode, 201, 'registrations work again');
  saved.push(after);

  // A second spell, after the probe's own row exists: met the same way, and logged again.
  await app.jobs.settled();
  const filler2 = fill(disk);
  let refusedAgain: Awaited<ReturnType<typeof api>> | undefined;
  for (let i = 0; i < 60 && !refusedAgain; i += 1) {
    const body = validRegistration();
    const response = await api('/api/auth/register', body);
    if (response.statusCode === 201) saved.push(body);
    else refusedAgain = response;
  }
  t.equal(refusedAgain?.json().code, 'STORAGE_FULL', 'a second spell: refused the same way');
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 503, '/readyz fails again');
  t.equal(
    logs.filter((line) => storageFullLog.test(String(line.msg))).length,
    2,
    'the cause is logged again, once, since it had cleared',
  );
  rmSync(filler2);
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'and ready again once space is freed');
  t.equal(
    logs.filter((line) => /the database writes again/.test(String(line.msg))).length,
    2,
    'the end of each spell is logged once',
  );

  for (const body of saved) {
    const response = await api('/api/auth/login', { email: body.email, password: body.password });
    if (response.statusCode !== 200) t.fail(`${String(body.email)}: ${response.statusCode}`);
  }
  t.pass('every account answered 2xx logs in');
  await integrity(saved.length);
  t.ok(statSync(disk).isDirectory());
}

t.test('an email the disk cannot hold: given up, and no part of it left in the outbox', { skip }, async (t) => {
  const disk = smallDisk(t, 1);
  const outboxDir = join(disk, 'outbox');
  mkdirSync(outboxDir);
  const logs: Record<string, unknown>[] = [];
  const mailer = new Mailer({
    smtpUrl: undefined,
    outboxDir,
    from: 'site@example.com',
    log: collectingLogger(logs),
    jobs: new BackgroundJobs(collectingLogger(logs)),
    retryDelaysMs: [0],
  });
  t.teardown(() => mailer.close());
  const filler = fill(disk);
  const mail = composeMail('passwordReset', 'th', 'owner@example.com', {
    name: 'Owner',
    link: `${origin}/th/reset-password?token=x`,
  });
  t.equal(await mailer.deliver(mail), false, 'both attempts fail');
  t.same(readdirSync(outboxDir), [], 'no .tmp file');
  t.ok(
    logs.some((line) => line.msg === 'email could not be sent; giving up'),
    'the log says so',
  );
  rmSync(filler);
  t.equal(await mailer.deliver(mail), true, 'with room again it is written');
  t.match(readdirSync(outboxDir), [/-passwordReset-[0-9a-f]{8}\.eml$/], 'one whole file');
});

t.test('sqlite: DATA_DIR on a full disk', { skip }, async (t) => {
  const disk = smallDisk(t, 3);
  const started = await startTestApp(
    { DATA_DIR: join(disk, 'data'), PUBLIC_URL: origin },
    { databaseFromConfig: true },
  );
  t.teardown(started.close);
  await fullDiskBehaviour(
    t,
    started,
    disk,
    async () => {
      const result = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(started.app.db);
      t.same(result.rows, [{ integrity_check: 'ok' }], 'the file is intact');
    },
    true,
  );
});

const base = postgresUrl();
if (!base) t.comment('TEST_DATABASE_URL is not set: the full disk is not tested on PostgreSQL');
else {
  // The tablespace's folder is made here: the server must run on this machine, as `postgres`.
  let owner: { uid: number; gid: number } | string;
  try {
    owner = {
      uid: Number(execFileSync('id', ['-u', 'postgres']).toString()),
      gid: Number(execFileSync('id', ['-g', 'postgres']).toString()),
    };
  } catch {
    owner = 'no local postgres user to own a tablespace folder (the server must run on this machine)';
  }
  t.test(
    'postgresql: tables in a tablespace on a full disk',
    { skip: skip ?? (typeof owner === 'string' ? owner : false) },
    async (t) => {
      const disk = smallDisk(t, 8, owner as { uid: number; gid: number });
      const name = `asdas_full_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create tablespace ${name} location '${disk}'`);
      await admin.query(`create schema ${name}`);
      t.teardown(async () => {
        await admin.query(`drop schema ${name} cascade`);
        await admin.query(`drop tablespace ${name}`);
        await admin.end();
      });
      const options = encodeURIComponent(`-c search_path=${name} -c default_tablespace=${name}`);
      const url = `${base}${base.includes('?') ? '&' : '?'}options=${options}`;
      const started = await startTestApp(
        { DATABASE_URL: url, PUBLIC_URL: origin, PLAY_SECRET: 'a-test-secret-of-at-least-32-characters' },
        { databaseFromConfig: true },
      );
      t.teardown(started.close);
      await fullDiskBehaviour(
        t,
        started,
        disk,
        async (accounts) => {
          const { count } = (await admin.query(`select count(*)::int as count from ${name}.users`)).rows[0] as {
            count: number;
          };
          t.equal(count, accounts, 'the accounts answered 2xx, and only those');
        },
        false,
      );
    },
  );
}
