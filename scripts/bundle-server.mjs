// The production server as a few files (decision 0041): esbuild bundles server.ts and what it
// imports, packages included, into dist/node; what a start does not run (tracing, Redis, pg,
// nodemailer, the Markdown pipeline) is a chunk loaded on first use. Native addons and what only
// development loads stay in node_modules. Other entries, folder or plugins: a bundle made the same way.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

/** Entries keep their source paths: scripts/start.mjs and scripts/build.mjs import them. */
const entryPoints = [
  'server.ts',
  'lib/runtime-env.ts',
  'lib/content/load-worker.ts',
  'lib/content/loader.ts',
  'lib/content/snapshot-cache.ts',
  'scripts/compile-schemas.ts',
  'lib/icons/built-app-icons.ts',
];

const external = ['libsql', '@libsql/*', '@node-rs/*', 'pg-native', 'vite', '@vitejs/*', 'tsx', 'pino-pretty'];

export async function bundleServer(root, { entries = entryPoints, folder = 'dist/node', plugins = [] } = {}) {
  const outdir = resolve(root, folder);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: entries,
    outbase: '.',
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    external,
    // CommonJS packages call require(): ESM output gives them Node's own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins,
    logLevel: 'warning',
  });
}
