/**
 * A start that cannot succeed exits 1 within seconds with one line naming the setting and what to
 * do (issue 50): the built server as operators run it, for each way a folder, a database, Redis,
 * a port or a variable can be wrong. JSON when not on a terminal, one readable line on one; never a
 * stack trace, and nothing says "opened" or "open http://" before it is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { postgresUrl } from '../helpers/database.ts';
import { serverJs, serverProcessEnv, startServerProcess } from '../helpers/server-process.ts';

const limitMs = 10_000;

/** Starts the server with `env`, waits for it to exit, and checks its one fatal line. */
async function refusedStart(
  t: Test,
  env: Record<string, string>,
  expected: RegExp,
  notSaid = /database opened|open http:\/\/|listening at/,
) {
  const started = Date.now();
  const server = startServerProcess(env);
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
  const code = await server.exited;
  clearTimeout(timer);
  const elapsed = Date.now() - started;
  const output = server.output();
  t.equal(code, 1, 'exit code 1');
  t.ok(elapsed < limitMs, `exited within ${limitMs / 1000} s (${elapsed} ms)`);
  const lines = output.split('\n').filter(Boolean);
  t.ok(
    lines.every((line) => line.startsWith('{')),
    'only JSON lines, no raw stack',
    { output },
  );
  const parsed = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
  const fatal = parsed.filter((line) => line.level === 60);
  t.equal(fatal.length, 1, 'one fatal line');
  t.match(fatal[0]?.msg, /^error caught during app initialization: /);
  t.match(fatal[0]?.msg, expected);
  t.equal(fatal[0]?.err, undefined, 'no error object with a stack');
  t.notOk(
    parsed.some((line) => notSaid.test(line.msg)),
    `nothing said ${notSaid.source}`,
  );
}

function listener(): Promise<{ server: Server; port: number }> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'asdas-start-failures-'));
t.teardown(() => rmSync(scratch, { recursive: true, force: true }));

t.test('DATA_DIR that is a file', async (t) => {
  const file = join(scratch, 'a-file');
  writeFileSync(file, 'not a folder');
  await refusedStart(t, { DATA_DIR: file }, /DATA_DIR=.*a-file cannot be a folder: .*a-file is a file/);
  await refusedStart(t, { DATA_DIR: join(file, 'inside') }, /DATA_DIR=.*inside cannot be a folder: .*a-file is a file/);
});

t.test('DATA_DIR on a filesystem that cannot hold it (/proc)', async (t) => {
  await refusedStart(
    t,
    { DATA_DIR: '/proc/asdas-data' },
    /DATA_DIR=\/proc\/asdas-data cannot be made: the filesystem of \/proc holds no folder there/,
  );
});

const readOnly = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-ro-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', dir]).status === 0;
  if (!mounted) rmSync(dir, { recursive: true, force: true });
  return mounted ? dir : undefined;
})();
t.test(
  'DATA_DIR on a read-only filesystem, there or still to be made',
  { skip: readOnly ? false : 'a read-only tmpfs cannot be mounted here (root needed)' },
  async (t) => {
    t.teardown(() => {
      execFileSync('umount', ['-l', readOnly!]);
      rmSync(readOnly!, { recursive: true, force: true });
    });
    await refusedStart(t, { DATA_DIR: readOnly! }, /DATA_DIR=.* is on a read-only filesystem/);
    await refusedStart(
      t,
      { DATA_DIR: join(readOnly!, 'a', 'b') },
      /DATA_DIR=.*cannot be made: its parent is on a read-only filesystem/,
    );
  },
);

t.test('DATABASE_URL refused, an unknown host, a refused user, a missing database', async (t) => {
  await refusedStart(
    t,
    { DATABASE_URL: 'postgres://asdas@127.0.0.1:1/asdas', PLAY_SECRET: 'p'.repeat(40) },
    /DATABASE_URL \(postgres:\/\/127\.0\.0\.1:1\/asdas\) refuses connections: is PostgreSQL running there/,
  );
  await refusedStart(
    t,
    { DATABASE_URL: 'postgres://asdas@no-such-host.invalid/asdas', PLAY_SECRET: 'p'.repeat(40) },
    /DATABASE_URL \(postgres:\/\/no-such-host\.invalid\/asdas\) names a host \(no-such-host\.invalid\) that does not resolve/,
  );
  const base = postgresUrl();
  if (!base) return void t.comment('TEST_DATABASE_URL is not set: a refused user and a missing database are not tried');
  const url = new URL(base);
  const withUser = new URL(base);
  withUser.username = 'no_such_role_asdas';
  await refusedStart(
    t,
    { DATABASE_URL: withUser.href, PLAY_SECRET: 'p'.repeat(40) },
    /DATABASE_URL \(.*\) refuses no_such_role_asdas: its password is wrong, or it may not connect/,
  );
  url.pathname = '/no_such_database_asdas';
  await refusedStart(
    t,
    { DATABASE_URL: url.href, PLAY_SECRET: 'p'.repeat(40) },
    /DATABASE_URL \(.*\) has no database no_such_database_asdas: create it, or name another/,
  );
});

t.test('REDIS_URL refused', async (t) => {
  await refusedStart(
    t,
    { DATA_DIR: join(scratch, 'redis'), REDIS_URL: 'redis://127.0.0.1:1' },
    /REDIS_URL \(127\.0\.0\.1:1\) cannot be reached \(ECONNREFUSED\): is Redis running there\?/,
  );
});

t.test('PORT or METRICS_PORT taken, said before anything else', async (t) => {
  const { server, port } = await listener();
  t.teardown(() => server.close());
  await refusedStart(
    t,
    { DATA_DIR: join(scratch, 'port'), PORT: String(port) },
    new RegExp(`PORT=${port}: another process already listens on 127\\.0\\.0\\.1:${port}: stop it, or set PORT`),
    /open http:\/\/|listening at/,
  );
  await refusedStart(
    t,
    { DATA_DIR: join(scratch, 'metrics'), METRICS_PORT: String(port) },
    new RegExp(
      `METRICS_PORT=${port}: another process already listens on 127\\.0\\.0\\.1:${port}: stop it, or set METRICS_PORT`,
    ),
    /open http:\/\//,
  );
});

t.test('every variable set but empty, or malformed', async (t) => {
  for (const name of ['ALLOWED_EXTERNAL_ORIGINS', 'PORT', 'DATA_DIR', 'TRUST_PROXY', 'PUBLIC_URL'])
    await refusedStart(
      t,
      { [name]: '' },
      new RegExp(`${name} must be .*\\(it is set but empty: give it a value, or remove it for the default\\)`),
    );
  await refusedStart(t, { PORT: 'abc' }, /PORT must be an integer from 0 to 65535 \(got "abc"\)/);
});

// util-linux's `script` gives the server a terminal, as `npm start` in a shell does.
const terminal = spawnSync('script', ['--version']).status === 0;
t.test('on a terminal: the same, as one readable line', { skip: terminal ? false : 'no `script` here' }, async (t) => {
  const env = { ...process.env, ...serverProcessEnv, PORT: 'abc' };
  const result = spawnSync('script', ['-qefc', `${process.execPath} ${serverJs}`, '/dev/null'], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  const lines = result.stdout.split(/\r?\n/).filter((line) => line.trim());
  t.equal(result.status, 1, 'exit code 1');
  t.equal(lines.length, 1, 'one line', { lines });
  t.match(lines[0], /FATAL.*error caught during app initialization: Invalid configuration: PORT must be an integer/);
});
