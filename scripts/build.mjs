// Production build: client and SSR bundles (Vite), the server bundle (esbuild), and the build manifest
// (dist/build.json for the server, builds/latest.json + builds/meta/{id}.json for browsers).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { createBuilder } from 'vite';
import { bundleServer } from './bundle-server.mjs';

const root = resolve(import.meta.dirname, '..');
const started = Date.now();
process.env.NODE_ENV = 'production';
// BUILD_ID names the build (a release tag, a commit); it becomes a file name and a URL segment.
const id = process.env.BUILD_ID || randomUUID();
if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id)) {
  console.error(
    `BUILD_ID must be letters, digits, '.', '_' or '-' (at most 128, starting with a letter or digit), got '${id}'`,
  );
  process.exit(1);
}

const builder = await createBuilder({
  configFile: resolve(root, 'vite.config.ts'),
  logLevel: 'warn',
  mode: 'production',
});
await builder.buildApp();

await precompressAssets(resolve(root, 'dist/client/assets'));

await bundleServer(root);

// The shipped content and the pages' icons, prepared once here: a start on the same files skips
// the parse (decisions 0033, 0042).
const server = (file) => import(pathToFileURL(resolve(root, 'dist/node/lib/content', file)).href);
const [{ loadContent }, { snapshotCacheFile, writeSnapshotCache }] = await Promise.all([
  server('loader.js'),
  server('snapshot-cache.js'),
]);
await writeSnapshotCache(resolve(root, snapshotCacheFile), await loadContent(resolve(root, 'content')));
const { writeBuiltAppIcons } = await import(
  pathToFileURL(resolve(root, 'dist/node/lib/icons/built-app-icons.js')).href
);
await writeBuiltAppIcons();

const build = { id, timestamp: Date.now() };
writeFileSync(resolve(root, 'dist/build.json'), JSON.stringify(build));

// Every route's validators and serializers as code (the app needs dist/build.json to start).
const { writeCompiledSchemas } = await import(
  pathToFileURL(resolve(root, 'dist/node/scripts/compile-schemas.js')).href
);
const compiledSchemas = await writeCompiledSchemas();
mkdirSync(resolve(root, 'builds/meta'), { recursive: true });
writeFileSync(resolve(root, 'builds/meta', `${build.id}.json`), JSON.stringify({ ...build, prerendered: [] }));
// latest.json last: a browser polling it must never see an id whose meta file is missing.
writeFileSync(resolve(root, 'builds/latest.json'), JSON.stringify(build));
console.log(
  `built ${build.id} in ${((Date.now() - started) / 1000).toFixed(1)} s (${compiledSchemas} validators and serializers compiled)`,
);

/**
 * Hashed assets are compressed once here, at the strongest settings (brotli 11, gzip 9), as
 * `name.br` and `name.gz` next to them; the server sends those as they are (@fastify/static's
 * `preCompressed`), so no request pays for compressing a script. Only text files of 1 KB or more,
 * and only a variant that is smaller.
 */
async function precompressAssets(dir) {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  const files = readdirSync(dir).filter((name) => /\.(?:js|mjs|css|svg|json|txt|html)$/.test(name));
  await Promise.all(
    files.map(async (name) => {
      const file = resolve(dir, name);
      const body = readFileSync(file);
      if (body.length < 1024) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gzipped(body, { level: 9 }),
      ]);
      if (br.length < body.length) writeFileSync(`${file}.br`, br);
      if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
    }),
  );
}
