import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/** The server the bench starts: the site's server.ts, its app with the bench's routes. */
export const benchServerFile = 'dist/bench/server.js';
const benchSources = ['bench/app.ts', 'bench/baseline-routes.ts', 'bench/react-floor.ts'];

type BundleServer = (root: string, options: { entries: string[]; folder: string; plugins: Plugin[] }) => Promise<void>;

/**
 * server.ts bundled as the build bundles it (scripts/bundle-server.mjs), into dist/bench/, with its
 * `./app.ts` resolved to bench/app.ts: the site's start, listeners and shutdown, unchanged. Made
 * again when the build or those sources are newer than it.
 */
export async function bundleBenchServer(root: string, force = false): Promise<void> {
  const output = join(root, benchServerFile);
  const newest = Math.max(...['dist/build.json', ...benchSources].map((file) => statSync(join(root, file)).mtimeMs));
  if (!force && existsSync(output) && statSync(output).mtimeMs >= newest) return;
  const siteServer = join(root, 'server.ts');
  let replaced = false;
  const benchApp: Plugin = {
    name: 'bench-app',
    setup(build) {
      build.onResolve({ filter: /^\.\/app\.ts$/ }, (args) => {
        if (args.importer !== siteServer) return undefined;
        replaced = true;
        return { path: join(root, 'bench/app.ts') };
      });
    },
  };
  const script = pathToFileURL(join(root, 'scripts/bundle-server.mjs')).href;
  const { bundleServer } = (await import(script)) as { bundleServer: BundleServer };
  await bundleServer(root, { entries: ['server.ts'], folder: 'dist/bench', plugins: [benchApp] });
  if (!replaced) {
    rmSync(join(root, 'dist/bench'), { recursive: true, force: true });
    throw new Error('server.ts no longer imports ./app.ts: bench/server-bundle.ts cannot add the bench routes');
  }
}
