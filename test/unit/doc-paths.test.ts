/**
 * The documents and the code comments name only paths that exist, and comments stay a small part of
 * the code.
 *
 * Read: README.md, CONTRIBUTING.md, every Markdown file under docs/, test/README.md, and every comment
 * of the source files (root scripts, plugins/, routes/, lib/, client/, contract/, scripts/, bench/, test/). A
 * repository path is a token that starts with a top-level folder (`lib/`, `docs/`, `.ci/` ...) or
 * with a folder beside the document or source file (`helpers/` in test/README.md), and the target
 * of a relative Markdown link, resolved from the document (its `#anchor` must be a heading there).
 * A path may end with `/` (a folder) or hold globs and placeholders (`*`, `{a,b}`, `{id}`,
 * `<slug>`): then something must match. `docs/decisions/0015` names the record with that number.
 * Not paths: URLs, package names (`@fastify/vite`, `fastify/lib/...`: not at a token's start), and
 * relative specifiers in comments (`../lib/x.ts`). Never checked: what a build or a run writes
 * (dist/, builds/, data/, screenshots/, coverage/, bench/results/, test/.tmp/, node_modules/).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path/posix';
import t from 'tap';
import { commentShare, scanSource, sourceFolders } from '../../scripts/comment-share.ts';

const root = join(import.meta.dirname, '../..');
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const folders = new Set(
  files.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const outputs = [
  'dist',
  'builds',
  'data',
  'screenshots',
  'coverage',
  'node_modules',
  'bench/results',
  'test/.tmp',
  '.tap',
];
const topFolders = [...new Set([...[...folders].filter((folder) => !folder.includes('/')), ...outputs])];

const escape = (text: string) => text.replace(/[.+^$()|[\]\\]/g, '\\$&');
function globPattern(path: string): RegExp {
  const source = path
    .split(/(\*\*\/?|\*|\{[^}]*\}|<[^>]*>)/)
    .map((part, index) => {
      if (index % 2 === 0) return escape(part);
      if (part.startsWith('**')) return '(?:.*/)?';
      if (part === '*' || part.startsWith('<') || !part.includes(',')) return '[^/]*';
      return `(?:${part.slice(1, -1).split(',').map(escape).join('|')})`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

function exists(path: string): boolean {
  const bare = normalize(path).replace(/\/$/, '');
  if (/[*{<]/.test(bare)) {
    const pattern = globPattern(bare);
    return files.some((file) => pattern.test(file)) || [...folders].some((folder) => pattern.test(folder));
  }
  return files.includes(bare) || folders.has(bare);
}

const isOutput = (path: string) => outputs.some((output) => path === output || path.startsWith(`${output}/`));

/** The dead paths among the tokens of one line of text, read from the folder `from`. */
function deadTokens(text: string, from: string): string[] {
  const beside = [...folders]
    .filter((folder) => dirname(folder) === from)
    .map((folder) => folder.slice(from.length + 1));
  const names = [...topFolders, ...(from === '.' ? [] : beside)].map(escape).join('|');
  const token = new RegExp(`(?<![\\w@$.~/\\\\-])(?:${names})/(?:\\{[^}\\s]*\\}|[^\\s\`'"()\\[\\],;|{])*`, 'g');
  const withoutUrls = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]`'"]*/gi, '');
  const dead: string[] = [];
  for (const [match] of withoutUrls.matchAll(token)) {
    const path = match
      .replace(/[#?].*$/, '')
      .replace(/:\d+$/, '')
      .replace(/[.:;,!?]+$/, '')
      .replace(/\.\.\.$/, '');
    if (isOutput(path)) continue;
    const record = /^docs\/decisions\/(\d{4})$/.exec(path);
    if (record ? exists(`docs/decisions/${record[1]}-*.md`) : exists(path)) continue;
    if (from !== '.' && beside.some((folder) => path.startsWith(`${folder}/`)) && exists(join(from, path))) continue;
    dead.push(path);
  }
  return dead;
}

/** GitHub's anchor of each heading of a Markdown text. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

const documents = files.filter(
  (file) =>
    ['README.md', 'CONTRIBUTING.md', 'test/README.md'].includes(file) ||
    (file.startsWith('docs/') && file.endsWith('.md')),
);

t.test('documents name only paths that exist', async (t) => {
  const dead: string[] = [];
  for (const document of documents) {
    const text = readFileSync(join(root, document), 'utf8');
    const from = dirname(document);
    text.split('\n').forEach((line, index) => {
      for (const path of deadTokens(line, from)) dead.push(`${document}:${index + 1}: ${path}`);
      const links = [...line.matchAll(/\]\(([^)\s]+)\)/g), ...line.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/g)];
      for (const [, target] of links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? document : normalize(join(from, path));
        if (!exists(resolved)) dead.push(`${document}:${index + 1}: ${target}`);
        else if (
          anchor &&
          resolved.endsWith('.md') &&
          !anchors(readFileSync(join(root, resolved), 'utf8')).has(anchor)
        ) {
          dead.push(`${document}:${index + 1}: ${target} (no such heading)`);
        }
      }
    });
  }
  t.same([...new Set(dead)], [], 'every path and link resolves');
});

t.test('code comments name only paths that exist', async (t) => {
  const sources = files.filter(
    (file) =>
      /\.(tsx?|mjs|js)$/.test(file) &&
      (!file.includes('/') || /^(plugins|routes|lib|client|contract|scripts|bench|test)\//.test(file)) &&
      !file.startsWith('test/fixtures/'),
  );
  const dead: string[] = [];
  for (const file of sources) {
    for (const comment of scanSource(readFileSync(join(root, file), 'utf8')).comments) {
      for (const path of deadTokens(comment.text, dirname(file))) dead.push(`${file}:${comment.line}: ${path}`);
    }
  }
  t.same(dead, [], 'every path a comment names exists');
});

t.test('comment lines are at most 12 % of the code lines in each source folder', async (t) => {
  for (const folder of sourceFolders) {
    const { code, comment, share } = commentShare(root, folder);
    t.ok(share <= 0.12, `${folder}: ${comment} comment lines for ${code} code lines (${(100 * share).toFixed(1)} %)`);
  }
});
