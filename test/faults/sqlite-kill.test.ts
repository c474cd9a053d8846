/**
 * The embedded database killed mid-write: the compiled server is SIGKILLed while registrations
 * are in flight, then started again on the same DATA_DIR. It must start, and every registration
 * it answered 201 must be there (a 201 is a promise to the visitor).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'asdas-kill-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

interface Server extends ServerProcess {
  base: string;
}

/** The production server on DATA_DIR; resolves once it says where it listens. */
async function startServer(): Promise<Server> {
  const server = startServerProcess({
    DATA_DIR: dataDir,
    REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    PLAY_SECRET: 'k'.repeat(40),
  });
  return { ...server, base: await server.listening };
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
          body: JSON.stringify({
            email,
            password,
            displayName: `Kill ${name}`,
            locale: 'en',
            acceptTerms: true,
            confirmAge: true,
          }),
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
    body: JSON.stringify({
      email: 'after-restart@example.com',
      password,
      displayName: 'After',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    }),
  });
  t.equal(another.status, 201, 'and it keeps writing');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0, 'a clean stop afterwards');
});
