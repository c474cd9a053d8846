/**
 * On a terminal (`npm start` in a shell) a request is one readable line: method, path, status and
 * time, the request id on a server error. Elsewhere, and with LOG_LEVEL=debug, Fastify's JSON
 * lines stay. The built server under util-linux's `script`, which gives it a terminal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { serverJs, serverProcessEnv } from '../helpers/server-process.ts';

const terminal = spawnSync('script', ['--version']).status === 0;

function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function onTerminal(env: Record<string, string>, paths: string[]): Promise<string[]> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'asdas-terminal-'));
  // The shell names its pid, which `exec` gives the server: it alone is stopped at the end.
  const child = spawn('script', ['-qefc', `echo "server pid $$"; exec ${process.execPath} ${serverJs}`, '/dev/null'], {
    env: { ...process.env, ...serverProcessEnv, PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes(`open http://localhost:${port}`)) done();
    });
    child.on('exit', () => fail(new Error(`the server exited:\n${output}`)));
  });
  await ready;
  for (const path of paths) await fetch(`http://127.0.0.1:${port}${path}`).then((response) => response.arrayBuffer());
  const exited = new Promise((done) => child.on('exit', done));
  process.kill(Number(/server pid (\d+)/.exec(output)?.[1]), 'SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  // eslint-disable-next-line no-control-regex -- the terminal's colours
  return output.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
}

t.test('a request is one line on a terminal', { skip: terminal ? false : 'no `script` here' }, async (t) => {
  const lines = await onTerminal({}, ['/', '/bonus', '/api/auth/me']);
  const requests = lines.filter((line) => / (GET|POST) \//.test(line));
  t.same(
    requests.map((line) => /INFO.*: (GET \S+ \d{3}) [\d.]+ ms$/.exec(line)?.[1]),
    ['GET / 200', 'GET /bonus 200', 'GET /api/auth/me 401'],
    'method, path, status and time, a line each',
    { lines },
  );
  t.notOk(
    lines.some((line) => /incoming request|request completed|user-agent/.test(line)),
    'no Fastify request objects',
  );
});

t.test(
  'with LOG_LEVEL=debug the full request lines stay',
  { skip: terminal ? false : 'no `script` here' },
  async (t) => {
    const lines = await onTerminal({ LOG_LEVEL: 'debug' }, ['/bonus']);
    t.ok(
      lines.some((line) => /incoming request/.test(line)),
      "Fastify's own lines",
    );
  },
);
