/**
 * The embedded database killed mid-write: the compiled server is SIGKILLed while registrations
 * are in flight, then started again on the same DATA_DIR. It must start, and every registration
 * it answered 201 must be there (a 201 is a promise to the visitor).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import t from 'tap';
import { seedPGliteDataDir } from '../helpers/database.ts';

const serverJs = resolve(import.meta.dirname, '../../dist/node/server.js');
const dataDir = mkdtempSync(join(tmpdir(), 'asdas-kill-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
await seedPGliteDataDir(dataDir);

interface Server {
  child: ChildProcess;
  base: string;
  exited: Promise<NodeJS.Signals | number | null>;
  output: () => string;
}

/** The production server on DATA_DIR; resolves once it says where it listens. */
async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [serverJs], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
      SHUTDOWN_DRAIN_MS: '0',
      DATA_DIR: dataDir,
      REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
      PLAY_SECRET: 'k'.repeat(40),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.on('exit', (code, signal) => done(signal ?? code)));
  const base = await new Promise<string>((done, fail) => {
    const check = () => {
      const address = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (address) done(address);
    };
    child.stdout!.on('data', check);
    void exited.then(() => fail(new Error(`the server exited before listening:\n${output}`)));
  });
  return { child, base, exited, output: () => output };
}

const password = 'correct horse battery staple';

t.test('SIGKILL during registrations, restart on the same folder: every answered registration is there', async (t) => {
  const first = await startServer();
  t.teardown(() => first.child.kill('SIGKILL'));
  const answered: string[] = [];
  let sent = 0;
  let killed = false;
  const client = async (name: string) => {
    for (let index = 0; !killed; index += 1) {
      const email = `kill-${name}-${index}@example.com`;
      sent += 1;
      try {
        const response = await fetch(`${first.base}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password, displayName: `Kill ${name}`, locale: 'en', acceptTerms: true, confirmAge: true }),
        });
        if (response.status === 201) answered.push(email);
        else if (!killed) t.fail(`${email}: ${response.status} ${await response.text()}`);
      } catch {
        // The connection died with the server: no answer, no promise made.
      }
    }
  };
  const clients = Promise.all(['a', 'b', 'c'].map(client));
  // Kill once a dozen have been answered, with three more on their way.
  while (answered.length < 12) await new Promise((done) => setTimeout(done, 20));
  killed = true;
  first.child.kill('SIGKILL');
  t.equal(await first.exited, 'SIGKILL');
  await clients;
  t.ok(sent > answered.length, `${answered.length} answered of ${sent} sent: some were in flight at the kill`);

  const second = await startServer();
  t.teardown(async () => {
    second.child.kill('SIGTERM');
    await second.exited;
  });
  const ready = await fetch(`${second.base}/readyz`);
  t.equal(ready.status, 200, `it starts on the same folder and is ready:\n${second.output().slice(-500)}`);
  const missing: string[] = [];
  for (const email of answered) {
    const login = await fetch(`${second.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (login.status !== 200) missing.push(`${email}: ${login.status}`);
  }
  t.same(missing, [], `all ${answered.length} answered registrations can log in`);
  const another = await fetch(`${second.base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'after-restart@example.com', password, displayName: 'After', locale: 'en', acceptTerms: true, confirmAge: true }),
  });
  t.equal(another.status, 201, 'and it keeps writing');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0, 'a clean stop afterwards');
});
