// The image installs only `dependencies` (npm ci --omit=dev): every package the built server and
// the SSR bundle import must be one, or the container stops at start with ERR_MODULE_NOT_FOUND.
// Runs on the production build in dist/ (`npm test` builds first).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.js') ? [path] : [];
  });
}

/** Bare specifiers of import/export statements and dynamic imports, by package name. */
function importedPackages(source: string): string[] {
  const specifiers = [
    // esbuild writes a long import list over several lines.
    ...source.matchAll(/^\s*(?:import|export)\s[^'";]*?\bfrom\s*["']([^"'./][^"']*)["']/gm),
    ...source.matchAll(/^\s*import\s*["']([^"'./][^"']*)["']/gm),
    ...source.matchAll(/\bimport\(\s*["']([^"'./][^"']*)["']\s*\)/g),
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
    imported.has('@node-rs/argon2') && imported.has('libsql'),
    'the scan finds what the server bundle leaves to node_modules',
  );
  for (const [name, file] of [...imported].sort(([a], [b]) => a.localeCompare(b))) {
    const where = file.slice(root.length + 1);
    t.ok(
      manifest.dependencies[name],
      `${name} (imported by ${where}) is in dependencies${manifest.devDependencies[name] ? ', not devDependencies' : ''}`,
    );
  }
});
