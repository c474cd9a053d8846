// `npm install` / `npm ci` run this (npm's `prepare`): tap applies the plugin list in .taprc only
// after `tap build`, so without it a fresh clone's `npx tap FILE` loads tap's TypeScript plugin and
// fails (TS5011). A production install (`npm ci --omit=dev`) has no tap: nothing to do then.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tap = resolve(root, 'node_modules/tap/dist/esm/run.mjs');
if (existsSync(tap)) {
  execFileSync(process.execPath, [tap, 'build'], { cwd: root, stdio: 'inherit' });
}
