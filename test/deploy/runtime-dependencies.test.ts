// The image installs only `dependencies` (npm ci --omit=dev): every package the built server and
// the SSR bundle import must be one, or the container stops at start with ERR_MODULE_NOT_FOUND.
// Runs on the production build in dist/ (`npm test` builds first).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.c?js$/.test(path) ? [path] : [];
  });
}

/** Bare specifiers of import/export statements and dynamic imports, by package name. */
function importedPackages(source: string): string[] {
  const specifiers = [
    // esbuild writes a long import list over several lines.
    ...source.matchAll(/^\s*(?:import|export)\s[^'";]*?\bfrom\s*["']([^"'./][^"']*)["']/gm),
    ...source.matchAll(/^\s*import\s*["']([^"'./][^"']*)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"'./][^"']*)["']\s*\)/g),
    // The compiled schemas (dist/node/compiled-schemas.cjs) require their runtime helpers.
    // A package name's first character: require-in-the-middle's debug text says `require('%s')`.
    ...source.matchAll(/\brequire\(\s*["']([@a-z0-9][^"']*)["']\s*\)/g),
  ].map((match) => match[1]!);
  return specifiers
    .filter((specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier.split('/')[0]!))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

t.test('every package the built server imports is a dependency, not a devDependency', async (t) => {
  const files = [...filesUnder(join(root, 'dist/node')), ...filesUnder(join(root, 'dist/server'))];
  t.ok(files.length > 20, `${files.length} built files`);
  const imported = new Map<string, string>();
  for (const file of files) for (const name of importedPackages(readFileSync(file, 'utf8'))) imported.set(name, file);
  t.ok(
    imported.has('@node-rs/argon2') && imported.has('libsql') && imported.has('fast-json-stringify'),
    'the scan finds what the server bundle leaves to node_modules',
  );
  for (const [name, file] of [...imported].sort(([a], [b]) => a.localeCompare(b))) {
    const where = file.slice(root.length + 1);
    // @fastify/vite's development mode (a chunk of its own) imports Vite; the image has no Vite.
    if (name === 'vite' && !startsWith(join(root, 'dist/node/server.js')).has(file)) continue;
    t.ok(
      manifest.dependencies[name],
      `${name} (imported by ${where}) is in dependencies${manifest.devDependencies[name] ? ', not devDependencies' : ''}`,
    );
  }
});

t.test('the development chunk, which imports Vite, is not loaded by a production start', async (t) => {
  const loaded = startsWith(join(root, 'dist/node/server.js'));
  const withVite = filesUnder(join(root, 'dist/node')).filter((file) =>
    importedPackages(readFileSync(file, 'utf8')).includes('vite'),
  );
  t.ok(withVite.length > 0, 'the scan finds the development chunk');
  t.same(
    withVite.filter((file) => loaded.has(file)),
    [],
  );
});

/** The files a start loads before its first line runs: the entry and its static imports, transitively. */
function startsWith(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(
      /^\s*(?:import|export)\s[^'";]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|^\s*import\s*["'](\.{1,2}\/[^"']+)["']/gm,
    ))
      pending.push(join(dirname(file), match[1] ?? match[2]!));
  }
  return seen;
}
