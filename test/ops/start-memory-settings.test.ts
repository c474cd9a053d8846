/**
 * `npm start` (scripts/start.mjs) runs the server with the image's memory settings and V8 flags
 * (lib/runtime-env.ts): they are read only at process start, so the script starts itself again
 * with them through process.execve (an older Node is told to use `npm start`). A stand-in for
 * process.execve, loaded before the script, records the call instead of making it. tap passes its
 * own NODE_OPTIONS to the processes a test starts, so the stand-in removes it first where a start
 * without one is meant. Needs the production build (`npm run build`), as `npm start` does.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import t from 'tap';
import { runtimeEnv, runtimeFlags } from '../../lib/runtime-env.ts';

const script = resolve(import.meta.dirname, '../../scripts/start.mjs');

function runStart(
  stub: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<{ code: number; output: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(name in runtimeEnv) && name !== 'NODE_ENV'),
  );
  return new Promise((done) => {
    // PORT=no-port: a server that does get started stops at its configuration check at once.
    execFile(
      process.execPath,
      [...flags, '--import', stub, script],
      { env: { ...base, PORT: 'no-port', LOG_LEVEL: 'fatal', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
      },
    );
  });
}

t.test('started without the settings, it starts itself again with them, keeping its own environment', async (t) => {
  const dir = t.testdir();
  const stub = join(dir, 'execve-stub.mjs');
  writeFileSync(
    stub,
    `delete process.env.NODE_OPTIONS;
     process.execve = (file, args, env) => {
       process.stdout.write('EXECVE ' + JSON.stringify({ file, args, env: Object.fromEntries(${JSON.stringify([...Object.keys(runtimeEnv), 'KEPT'])}.map((name) => [name, env[name]])) }) + '\\n');
       process.exit(0);
     };`,
  );
  const { code, output } = await runStart(stub, { KEPT: 'yes' });
  t.equal(code, 0);
  const call = JSON.parse(/^EXECVE (.*)$/m.exec(output)?.[1] ?? 'null') as {
    file: string;
    args: string[];
    env: Record<string, string>;
  } | null;
  t.ok(call, 'process.execve was called');
  t.equal(call?.file, process.execPath, 'the same node');
  t.same(
    call?.args,
    [process.execPath, ...runtimeFlags, '--import', stub, script],
    'the V8 flags added, its own flags and script kept',
  );
  t.same(call?.env, { ...runtimeEnv, KEPT: 'yes' }, 'the settings added, the rest of the environment kept');
});

t.test(
  "started with the settings and flags (or an operator's own), it runs the server in the same process",
  async (t) => {
    const dir = t.testdir();
    const stub = join(dir, 'execve-stub.mjs');
    writeFileSync(stub, `process.execve = () => { process.stdout.write('EXECVE\\n'); process.exit(0); };`);
    const { code, output } = await runStart(
      stub,
      { NODE_OPTIONS: '', MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' },
      ['--maglev'],
    );
    t.notMatch(output, /^EXECVE$/m, 'no second start');
    t.equal(code, 1, 'the server itself ran, and stopped at PORT=no-port');
    t.match(output, /error caught during app initialization/);
  },
);

t.test('run by an older Node (not through npm), it says how to start instead', async (t) => {
  const dir = t.testdir();
  const stub = join(dir, 'no-execve.mjs');
  writeFileSync(stub, `delete process.env.NODE_OPTIONS; delete process.execve;`);
  const { code, output } = await runStart(stub, {});
  t.equal(code, 1);
  t.match(output, /cannot run the site: start it with `npm start`, which runs the project's Node 24/);
  t.notMatch(output, /error caught during app initialization|\n\s+at /, 'the server never started, no stack');
});
