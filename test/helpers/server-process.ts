/**
 * The compiled server (dist/node/server.js) as a process of its own, as operators run it: for
 * what only a real process shows (signals, exit codes, start-up failures, locks on its data folder).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Test } from 'tap';

export const serverJs = resolve(import.meta.dirname, '../../dist/node/server.js');

/** The settings every server process here starts from; a test's own `env` comes on top. */
export const serverProcessEnv: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  METRICS_PORT: '0',
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  SHUTDOWN_DRAIN_MS: '0',
};

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the first match of `pattern` in its output; rejects if it exits first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with `http://127.0.0.1:<port>` once it listens; rejects if it exits first. */
  listening: Promise<string>;
  /** Its exit code, or the signal that ended it. */
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Starts the server with `env` over serverProcessEnv; `command` runs it through another program (unshare). */
export function startServerProcess(
  env: Record<string, string>,
  command?: { file: string; args: string[] },
): ServerProcess {
  const [file, args] = command ? [command.file, command.args] : [process.execPath, [serverJs]];
  const child = spawn(file, args, {
    env: { ...process.env, ...serverProcessEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const readers = new Set<() => void>();
  const read = (chunk: Buffer) => {
    output += String(chunk);
    for (const reader of readers) reader();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<NodeJS.Signals | number | null>((done) =>
    child.on('exit', (code, signal) => done(signal ?? code)),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((done, fail) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        readers.delete(check);
        done(match);
      };
      readers.add(check);
      check();
      void exited.then(() => {
        readers.delete(check);
        fail(new Error(`the server exited before printing ${pattern}:\n${output}`));
      });
    });
  const listening = waitFor(/listening at (http:\/\/127\.0\.0\.1:\d+)/).then((match) => match[1]!);
  // A test that expects the process to fail never asks where it listens.
  listening.catch(() => undefined);
  return { child, output: () => output, waitFor, listening, exited };
}

/** A server on a data folder of its own (`asdas-<name>-…`), killed and the folder removed when `t` ends. */
export function startOwnServer(t: Test, name: string, env: Record<string, string> = {}): ServerProcess {
  const dataDir = mkdtempSync(join(tmpdir(), `asdas-${name}-`));
  const server = startServerProcess({ DATA_DIR: dataDir, ...env });
  t.teardown(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  return server;
}
