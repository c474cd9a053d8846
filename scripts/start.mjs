// `npm start`: build when the sources are newer than the last build, then serve in production mode.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const stamp = resolve(root, 'dist/build.json');
const sources = [
  'server.ts',
  'app.ts',
  'vite.config.ts',
  'package.json',
  'client',
  'contract',
  'plugins',
  'routes',
  'lib',
  'locales',
];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stat.mtimeMs);
}

const builtAt = existsSync(stamp) && existsSync(resolve(root, 'dist/node/server.js')) ? statSync(stamp).mtimeMs : 0;
if (sources.some((source) => newestChange(resolve(root, source)) > builtAt)) {
  console.log('Building the site (sources changed since the last build)...');
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
}

process.env.NODE_ENV ??= 'production';
// The image's process settings (V8 heap sizing and flags, glibc arenas: lib/runtime-env.ts) are
// read only when a process starts, so this process starts again with them, under the same pid
// (signals and the terminal stay as they were). npm's scripts run the project's Node 24.
const { missingRuntimeEnv, missingRuntimeFlags, withRuntimeEnv } = await import('../dist/node/lib/runtime-env.js');
const missingFlags = missingRuntimeFlags(process.execArgv);
const missing = [...missingRuntimeEnv(process.env), ...missingFlags];
if (missing.length > 0 && typeof process.execve !== 'function') {
  console.error(
    `Node ${process.version} cannot run the site: start it with \`npm start\`, which runs the project's Node 24.`,
  );
  process.exit(1);
}
if (missing.length > 0) {
  process.execve(
    process.execPath,
    [process.execPath, ...missingFlags, ...process.execArgv, import.meta.filename],
    withRuntimeEnv(process.env),
  );
}
// Node 22 and later keep the server's compiled code here for the next start (decision 0042).
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE ?? resolve(root, 'dist/compile-cache'));
await import('../dist/node/server.js');
