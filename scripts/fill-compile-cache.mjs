// The image's build: starts the bundled server once, as the user the image runs as, with
// NODE_COMPILE_CACHE set, serves the pages a first visitor asks for, and stops it. Node writes the
// code of every module it compiled to that folder at exit; each later start reads it instead of
// compiling again (Node 22 and later; decision 0042).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
if (!process.env.NODE_COMPILE_CACHE) throw new Error('NODE_COMPILE_CACHE names the folder to fill');
const dataDir = mkdtempSync(join(os.tmpdir(), 'asdas-compile-cache-'));
const port = 3999;
const server = spawn(process.execPath, ['--no-maglev', join(root, 'dist/node/server.js')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    METRICS_PORT: '0',
    LOG_LEVEL: 'error',
    SHUTDOWN_DRAIN_MS: '0',
  },
  stdio: 'inherit',
});
const exited = new Promise((done) => server.once('exit', (code, signal) => done({ code, signal })));

async function firstAnswer(path) {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const answer = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined);
    if (answer?.ok) return void (await answer.arrayBuffer());
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`no answer from ${path} within a minute`);
}

const served = await Promise.all(['/', '/th', '/_payload.json'].map(firstAnswer)).catch((error) => error);
server.kill('SIGTERM');
const { code, signal } = await exited;
rmSync(dataDir, { recursive: true, force: true });
if (served instanceof Error) throw served;
if (code !== 0) throw new Error(`the server stopped with ${code ?? signal}`);
