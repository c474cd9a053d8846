/**
 * One process per embedded database folder (issue 25, item 4; docs/decisions/0025). Two servers
 * on one data folder (then PGlite) each answered 201 and lost each other's writes. Now the second is refused
 * at start with a message naming the folder and the holder; a holder killed with SIGKILL leaves
 * nothing that blocks the next start; of two processes starting on a folder at once exactly one
 * wins; and in "containers" (every server pid 1 in its own pid namespace, each with its own
 * hostname) a live one is never taken for gone, while a dead one's replacement starts at once.
 * Deleting the lock file under a holder lets no second server in. One data folder throughout: the
 * servers run one after the other on it, as on a real volume.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DataFolderInUseError, lockFileName } from '../../lib/db/data-folder-lock.ts';
import { openDatabase } from '../../lib/db/connect.ts';
import { serverJs, startServerProcess } from '../helpers/server-process.ts';

const password = 'correct horse battery staple';

interface Server {
  /** The pid of the process we started (for a "container", `unshare`'s). */
  pid: number;
  /** Settles once the server listens or exits, whichever comes first. */
  outcome: Promise<'listening' | 'exited'>;
  exited: Promise<NodeJS.Signals | number | null>;
  base: () => string;
  output: () => string;
  kill: (signal: NodeJS.Signals) => void;
}

/**
 * The production server on `dataDir`. `container` runs it as pid 1 of a new pid namespace with a
 * hostname of its own (a new UTS namespace), as a container runtime would.
 */
function startServer(dataDir: string, container?: string): Server {
  const env = {
    DATA_DIR: dataDir,
    REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000000',
    PLAY_SECRET: 'k'.repeat(40),
  };
  const server = startServerProcess(
    env,
    container
      ? {
          file: 'unshare',
          args: [
            '--pid',
            '--fork',
            '--uts',
            '--kill-child',
            'sh',
            '-c',
            'hostname "$0" && exec "$@"',
            container,
            process.execPath,
            serverJs,
          ],
        }
      : undefined,
  );
  let base = '';
  const outcome = server.listening.then(
    (address) => {
      base = address;
      return 'listening' as const;
    },
    () => 'exited' as const,
  );
  const { child } = server;
  return {
    pid: child.pid!,
    outcome,
    exited: server.exited,
    base: () => base,
    output: server.output,
    kill: (signal) => {
      if (container) {
        // The server itself (pid 1 inside): killing it ends its namespace, then `unshare` exits.
        const inner = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0];
        if (inner) process.kill(Number(inner), signal);
      } else {
        child.kill(signal);
      }
    },
  };
}

/** Ends the server (if it still runs) when the test ends, so a failing test leaves nothing behind. */
function cleanUp(t: Test, server: Server): void {
  t.teardown(async () => {
    try {
      server.kill('SIGKILL');
    } catch {
      // already gone
    }
    await server.exited;
  });
}

async function register(server: Server, email: string): Promise<number> {
  const response = await fetch(`${server.base()}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email,
      password,
      displayName: 'Lock Test',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    }),
  });
  return response.status;
}

async function login(server: Server, email: string): Promise<number> {
  const response = await fetch(`${server.base()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

/** The refusal as the start-up failure path logs it (pino's fatal line). */
function refusal(server: Server): string | undefined {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .find((line) => line.level === 60)?.msg;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The refusal's message; as the server logs it, after the start-up failure's prefix. */
function refusalPattern(
  dataDir: string,
  pid: number,
  host: string,
  prefix = 'error caught during app initialization: ',
): RegExp {
  return new RegExp(
    `^${escape(prefix)}The data folder ${escape(dataDir)} is in use by another process ` +
      `\\(pid ${pid} on host ${escape(host)} since [0-9T:.Z-]+\\).*Stop the other process.*DATABASE_URL`,
  );
}

t.test('one opening at a time, let go on close, details of a dead holder overwritten', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-lock-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, lockFileName);
  // What a holder killed with SIGKILL leaves: its details, and no lock (the kernel let it go).
  writeFileSync(path, JSON.stringify({ pid: 999_999, hostname: 'gone', since: '2020-01-01T00:00:00.000Z' }));

  const first = await openDatabase({ dataDir: dir });
  t.match(
    JSON.parse(readFileSync(path, 'utf8')),
    { pid: process.pid, hostname: hostname() },
    "the dead holder's details are replaced",
  );

  // SQLite's lock belongs to the connection: a second opening in this process is refused too.
  const refused = await openDatabase({ dataDir: dir }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.type(refused, DataFolderInUseError);
  t.match(
    (refused as Error).message,
    refusalPattern(dir, process.pid, hostname(), ''),
    'the message names the folder and the holder',
  );
  t.match(
    JSON.parse(readFileSync(path, 'utf8')),
    { pid: process.pid },
    "a refused attempt leaves the holder's details as they were",
  );

  await first.close();
  await first.close();
  t.equal(readFileSync(path, 'utf8'), '', 'closed: the details are cleared, the file stays');
  const again = await openDatabase({ dataDir: dir });
  t.pass('after a close the folder can be opened again');
  await again.close();
});

t.test('servers on one DATA_DIR', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-lock-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

  // The first holds the folder; the second, started while it serves, is refused.
  const first = startServer(dataDir);
  cleanUp(t, first);
  t.equal(await first.outcome, 'listening', 'the first starts', { output: first.output().slice(-1500) });
  t.equal(await register(first, 'alice@example.com'), 201);

  const second = startServer(dataDir);
  cleanUp(t, second);
  // (Before the lock it started, and both answered 201 to registrations that the next start lost.)
  if (
    t.equal(await second.outcome, 'exited', 'a second server on the same folder does not start', {
      output: second.output().slice(-1500),
    })
  ) {
    t.equal(await second.exited, 1, 'it exits 1');
  }
  t.match(
    refusal(second),
    refusalPattern(dataDir, first.pid, hostname()),
    "its log names the folder, the holder's pid and host, and what to do",
  );
  t.notMatch(second.output(), /database opened/, 'it never opened the database');

  t.equal(await register(first, 'bob@example.com'), 201, 'the first keeps writing');
  t.equal(await login(first, 'alice@example.com'), 200, 'and its data is intact');

  // SIGKILL: nothing runs at exit; the kernel lets the lock go. The lock file still names the
  // dead process, which must not matter.
  first.kill('SIGKILL');
  t.equal(await first.exited, 'SIGKILL');
  t.match(
    JSON.parse(readFileSync(join(dataDir, lockFileName), 'utf8')),
    { pid: first.pid },
    "the dead holder's details are left behind",
  );
  const third = startServer(dataDir);
  cleanUp(t, third);
  t.equal(await third.outcome, 'listening', 'after a SIGKILL the next server starts', {
    output: third.output().slice(-1500),
  });
  t.equal(await login(third, 'alice@example.com'), 200, 'the accounts made before the kill log in');
  t.equal(await login(third, 'bob@example.com'), 200);

  // Two servers racing for the folder a killed one left: exactly one wins.
  third.kill('SIGKILL');
  t.equal(await third.exited, 'SIGKILL');
  const racers = [startServer(dataDir), startServer(dataDir)];
  for (const racer of racers) cleanUp(t, racer);
  const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
  t.same([...outcomes].sort(), ['exited', 'listening'], 'exactly one of two racing servers starts', {
    outputs: racers.map((racer) => racer.output().slice(-1500)),
  });
  const winner = racers[outcomes.indexOf('listening')];
  const loser = racers[outcomes.indexOf('exited')];
  if (!winner || !loser) return;
  t.equal(await loser.exited, 1, 'the other exits 1');
  t.match(refusal(loser), refusalPattern(dataDir, winner.pid, hostname()), 'the loser names the winner');
  t.equal(await login(winner, 'alice@example.com'), 200, 'the winner serves the data');
  t.equal(await register(winner, 'carol@example.com'), 201);

  // The lock file deleted under the holder: the database file itself still refuses a second server.
  rmSync(join(dataDir, lockFileName));
  const afterDeletion = startServer(dataDir);
  cleanUp(t, afterDeletion);
  t.equal(await afterDeletion.outcome, 'exited', 'with the lock file deleted, a second server does not start', {
    output: afterDeletion.output().slice(-1500),
  });
  t.equal(await afterDeletion.exited, 1);
  t.match(
    refusal(afterDeletion),
    /The data folder .* is in use by another process \(pid unknown\).*Stop the other process/,
    'and says why',
  );
  t.equal(await register(winner, 'dave@example.com'), 201, 'the holder goes on serving');

  // A clean stop lets the folder go for the next start.
  winner.kill('SIGTERM');
  t.equal(await winner.exited, 0, 'a clean stop');
  const details = join(dataDir, lockFileName);
  // Deleted above, it is not made again: no file names no holder either.
  t.equal(existsSync(details) ? readFileSync(details, 'utf8') : '', '', 'and no lock file names a holder');

  // Needs root, unshare(1) and /proc/PID/task/PID/children (to find the server inside).
  const probe = spawnSync('unshare', ['--pid', '--fork', '--uts', 'sh', '-c', 'hostname probe']);
  const skip =
    probe.status === 0 && existsSync(`/proc/${process.pid}/task/${process.pid}/children`)
      ? false
      : `cannot make pid and UTS namespaces here: ${String(probe.error ?? probe.stderr) || 'no /proc children file'}`;
  await t.test('containers: every server pid 1 with a hostname of its own, on one volume', { skip }, async (t) => {
    const one = startServer(dataDir, 'container-one');
    cleanUp(t, one);
    t.equal(await one.outcome, 'listening', 'the first container starts', { output: one.output().slice(-1500) });

    // Same pid (1), another host: still a live holder, so it is refused.
    const two = startServer(dataDir, 'container-two');
    cleanUp(t, two);
    if (
      t.equal(await two.outcome, 'exited', 'a second container on the volume does not start', {
        output: two.output().slice(-1500),
      })
    ) {
      t.equal(await two.exited, 1, 'it exits 1');
    }
    t.match(refusal(two), refusalPattern(dataDir, 1, 'container-one'), 'it names the holder: pid 1 on container-one');
    t.equal(await login(one, 'carol@example.com'), 200, 'the first container serves on');

    // The first container dies hard; its replacement (new hostname, pid 1 again) starts.
    one.kill('SIGKILL');
    await one.exited;
    const three = startServer(dataDir, 'container-three');
    cleanUp(t, three);
    t.equal(await three.outcome, 'listening', 'the replacement container starts', {
      output: three.output().slice(-1500),
    });
    for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com']) {
      t.equal(await login(three, email), 200, `${email} logs in`);
    }
    three.kill('SIGTERM');
    t.equal(await three.exited, 0, 'a clean stop');
  });
});
