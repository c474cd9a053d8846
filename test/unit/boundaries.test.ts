import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import t from 'tap';

/**
 * The folders' contract (docs/decisions/0015): `contract/` is what the server and the browser
 * share and imports nothing else; server code (app.ts, server.ts, lib/, plugins/, routes/) never
 * imports browser code (client/), and browser code never imports server code. The one seam is the
 * SSR bundle's interface, which plugins/external/ssr.ts imports as types from client/entry.server.tsx.
 * A page's server half (client/pages/<name>.server.ts, its loader and action) is server code that
 * lives beside its component, which imports it only as a type (`typeof loader`, decision 0048).
 * Inside the server the layers only point down (routes/ -> plugins/ for types -> lib/), and no
 * import goes round in a cycle.
 */
const root = join(import.meta.dirname, '../..');
const files = execFileSync(
  'git',
  [
    'ls-files',
    '--cached',
    '--others',
    '--exclude-standard',
    'app.ts',
    'server.ts',
    'lib',
    'plugins',
    'routes',
    'client',
    'contract',
  ],
  {
    cwd: root,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((file) => /\.tsx?$/.test(file));

type Side = 'server' | 'client' | 'contract';
// locales/*.json are the strings both sides show: shared data, like contract/.
const isPageServerHalf = (file: string) => /^client\/pages\/[^/]+\.server\.ts$/.test(file);
const sideOf = (file: string): Side =>
  file.startsWith('client/') && !isPageServerHalf(file)
    ? 'client'
    : file.startsWith('contract/') || file.startsWith('locales/')
      ? 'contract'
      : 'server';

const importPattern =
  /(?:^|[\s;])(import\s+(type\s+)?[^'"]*?from\s*|import\s*\(\s*|export\s+(type\s+)?[^'"]*?from\s*)['"]([^'"]+)['"]/g;

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const edges: Edge[] = [];
const packages: { from: string; name: string }[] = [];
for (const file of files) {
  const source = readFileSync(join(root, file), 'utf8');
  for (const match of source.matchAll(importPattern)) {
    const specifier = match[4]!;
    const typeOnly = Boolean(match[2] ?? match[3]);
    if (specifier.startsWith('.'))
      edges.push({ from: file, to: normalize(relative(root, join(root, dirname(file), specifier))), typeOnly });
    else packages.push({ from: file, name: specifier });
  }
}

t.test('contract/ imports only contract/, and no Node or browser package', async (t) => {
  const outside = edges.filter((edge) => sideOf(edge.from) === 'contract' && sideOf(edge.to) !== 'contract');
  t.same(outside, [], 'contract/ stays self-contained');
  const used = packages.filter((use) => sideOf(use.from) === 'contract');
  t.same(used, [], 'contract/ is plain TypeScript');
});

t.test('server code never imports browser code', async (t) => {
  const seam = (edge: Edge) =>
    edge.from === 'plugins/external/ssr.ts' && edge.to === 'client/entry.server.tsx' && edge.typeOnly;
  const crossing = edges.filter(
    (edge) => sideOf(edge.from) === 'server' && sideOf(edge.to) === 'client' && !seam(edge),
  );
  t.same(crossing, []);
});

/** A page component naming its loader's type: erased from every bundle. */
const loaderType = (edge: Edge) => edge.typeOnly && edge.to === edge.from.replace(/\.tsx$/, '.server.ts');

t.test('browser code never imports server code', async (t) => {
  const crossing = edges.filter(
    (edge) => sideOf(edge.from) === 'client' && sideOf(edge.to) === 'server' && !loaderType(edge),
  );
  t.same(crossing, []);
  t.ok(edges.some(loaderType), 'a page reading its loader type is seen');
});

t.test('the check sees the imports (it would catch a crossing)', async (t) => {
  t.ok(
    edges.some((edge) => edge.from.startsWith('client/') && edge.to.startsWith('contract/')),
    'client -> contract edges found',
  );
  t.ok(
    edges.some((edge) => edge.from.startsWith('plugins/') && edge.to.startsWith('contract/')),
    'server -> contract edges found',
  );
  t.ok(
    edges.some((edge) => edge.from === 'plugins/external/ssr.ts' && edge.to === 'client/entry.server.tsx'),
    'the SSR seam is seen',
  );
  t.ok(
    edges.some((edge) => isPageServerHalf(edge.from) && edge.to.startsWith('lib/')),
    'a page server half is seen as server code',
  );
});

t.test('plugins declare no endpoint: every one is under routes/', async (t) => {
  // app.get(...), app.post(...), app.route({...}) and the rest, on the names a Fastify instance goes by here.
  const declaration = /\b(?:app|fastify|instance|scope|server)\.(?:get|post|put|patch|delete|head|options|all|route)\(/;
  const declaring = files
    .filter((file) => file.startsWith('plugins/'))
    .flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ file, line: index + 1, text: line.trim() }))
        .filter(({ text }) => declaration.test(text) && !text.startsWith('//') && !text.startsWith('*')),
    );
  t.same(declaring, [], 'no route declared in plugins/ (routes/ holds them)');
  const routeFiles = files.filter((file) => file.startsWith('routes/'));
  t.ok(
    routeFiles.some((file) => declaration.test(readFileSync(join(root, file), 'utf8'))),
    'the check finds declarations where they are (it would catch one in plugins/)',
  );
});

/*
 * Layers that only point down (issue 28): routes/ declares endpoints with what plugins/ make, and
 * both build on lib/ and contract/. A plugin never imports a route; a route imports a plugin only
 * for its types (the decorators' shapes, a plugin's options).
 */
const layerOf = (file: string) => file.split('/')[0]!;

t.test('plugins/ never imports routes/', async (t) => {
  const upward = edges.filter((edge) => layerOf(edge.from) === 'plugins' && layerOf(edge.to) === 'routes');
  t.same(upward, [], 'shared helpers belong in lib/ (or contract/ when the browser needs them)');
});

t.test('plugins/external/ (a library set up for us) never imports plugins/app/', async (t) => {
  const inward = edges.filter(
    (edge) => edge.from.startsWith('plugins/external/') && edge.to.startsWith('plugins/app/'),
  );
  t.same(inward, [], 'decision 0057: library glue knows nothing of the product');
  t.ok(
    edges.some((edge) => edge.from.startsWith('plugins/app/') && edge.to.startsWith('plugins/external/')),
    'the check sees edges between the two folders',
  );
});

t.test('routes/ imports plugins/ only as types', async (t) => {
  const values = edges.filter(
    (edge) => layerOf(edge.from) === 'routes' && layerOf(edge.to) === 'plugins' && !edge.typeOnly,
  );
  t.same(values, [], 'a value a route needs from a plugin module belongs in lib/');
});

/** Import cycles of `graph` (file -> the files it imports), each as the path that closes it. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

t.test('lib/ imports neither plugins/, routes/ nor the app', async (t) => {
  const upward = edges.filter(
    (edge) => layerOf(edge.from) === 'lib' && ['plugins', 'routes', 'app.ts', 'server.ts'].includes(layerOf(edge.to)),
  );
  t.same(upward, []);
});

t.test('in client/, only the server render imports a *.server module', async (t) => {
  const isServerModule = (file: string) => /\.server\.tsx?$/.test(file);
  const leaking = edges.filter(
    (edge) =>
      edge.from.startsWith('client/') && !isServerModule(edge.from) && isServerModule(edge.to) && !loaderType(edge),
  );
  t.same(leaking, [], 'the browser bundle never holds server-only code');
  t.ok(
    edges.some((edge) => isServerModule(edge.from) && isServerModule(edge.to)),
    'the check sees server modules importing each other',
  );
});

t.test('no import cycle among the project files', async (t) => {
  const graph = new Map<string, string[]>();
  for (const file of files) graph.set(file, []);
  for (const edge of edges) if (graph.has(edge.from) && graph.has(edge.to)) graph.get(edge.from)!.push(edge.to);
  t.same(
    cyclesOf(graph).map((cycle) => cycle.join(' -> ')),
    [],
  );
  t.ok(
    edges.some((edge) => edge.from.startsWith('routes/') && edge.to.startsWith('lib/')),
    'the check sees the imports between layers',
  );
});

t.test('the cycle check finds a cycle (it would catch one)', async (t) => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'd.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', []],
  ]);
  t.same(cyclesOf(graph), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  t.same(cyclesOf(new Map([['a.ts', ['a.ts']]])), [['a.ts', 'a.ts']], 'a file importing itself');
});
