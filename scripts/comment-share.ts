// `npx tsx scripts/comment-share.ts [folder ...]`: comment lines against code lines per source folder
// (default: every folder test/unit/doc-paths.test.ts holds to 12 %). A comment line holds comments
// and nothing else; a line with any code is a code line; blank lines are neither. Strings, template
// literals and regular expressions are code, so `'//'` or `/\/*/` is no comment.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SourceComment {
  line: number;
  text: string;
}

/** After these words a `/` starts a regular expression, as after an operator. */
const beforeExpression = new Set(
  'return typeof instanceof in of new delete void throw case do else yield await'.split(' '),
);

export function scanSource(source: string): { codeLines: Set<number>; comments: SourceComment[] } {
  const codeLines = new Set<number>();
  const comments: SourceComment[] = [];
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (position: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const code = (start: number, end: number) => {
    for (let line = lineOf(start); line <= lineOf(Math.max(start, end - 1)); line++) codeLines.add(line);
  };
  // Brace depth of each open `${` of a template literal, innermost last.
  const templates: number[] = [];
  let depth = 0;
  let valueBefore = false; // whether a `/` here divides (after a value) or starts a regex
  let i = 0;
  const templateText = (start: number) => {
    while (i < source.length && source[i] !== '`') {
      if (source[i] === '\\') i += 2;
      else if (source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        templates.push(depth++);
        code(start, i);
        valueBefore = false;
        return;
      } else i++;
    }
    i++;
    code(start, i);
    valueBefore = true;
  };
  while (i < source.length) {
    const char = source[i]!;
    const start = i;
    if (/\s/.test(char)) i++;
    else if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
      comments.push({ line: lineOf(start), text: source.slice(start + 2, i) });
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? source.length : end + 2;
      const lines = source.slice(start + 2, i - 2).split('\n');
      lines.forEach((text, index) => comments.push({ line: lineOf(start) + index, text }));
    } else if (char === '"' || char === "'") {
      i++;
      while (i < source.length && source[i] !== char && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
      i++;
      code(start, i);
      valueBefore = true;
    } else if (char === '`') {
      i++;
      templateText(start);
    } else if (char === '}' && templates.length > 0 && templates.at(-1) === depth - 1) {
      templates.pop();
      depth--;
      i++;
      templateText(start);
    } else if (char === '/' && !valueBefore && source[i - 1] !== '<') {
      // A regular expression, up to its closing `/` outside a class; none on this line: a `/` after all.
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== '\n' && (inClass || source[j] !== '/')) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        j++;
      }
      i = source[j] === '/' ? j + 1 : i + 1;
      while (i < source.length && /[a-z]/.test(source[i]!)) i++;
      code(start, i);
      valueBefore = source[j] === '/';
    } else if (/[\w$]/.test(char)) {
      while (i < source.length && /[\w$]/.test(source[i]!)) i++;
      code(start, i);
      valueBefore = !beforeExpression.has(source.slice(start, i));
    } else {
      i++;
      code(start, i);
      if (char === '{') depth++;
      else if (char === '}') depth--;
      valueBefore = char === ')' || char === ']';
    }
  }
  return { codeLines, comments };
}

/** Lines that hold comments and no code, and lines that hold code. */
export function countLines(source: string): { code: number; comment: number } {
  const { codeLines, comments } = scanSource(source);
  const commentLines = new Set(comments.map((comment) => comment.line).filter((line) => !codeLines.has(line)));
  return { code: codeLines.size, comment: commentLines.size };
}

/** The source folders held to 12 %, and the files of each (git's list: tracked and new, not ignored). */
export const sourceFolders = ['(root)', 'client', 'lib', 'plugins', 'contract', 'routes', 'scripts', 'bench'];

export function sourceFiles(root: string, folder: string): string[] {
  const patterns = folder === '(root)' ? ['*.ts'] : [folder];
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.(tsx?|mjs|js)$/.test(file) && !file.endsWith('.d.ts'))
    .filter((file) => folder !== '(root)' || !file.includes('/'));
}

export function commentShare(root: string, folder: string): { code: number; comment: number; share: number } {
  let code = 0;
  let comment = 0;
  for (const file of sourceFiles(root, folder)) {
    const counts = countLines(readFileSync(join(root, file), 'utf8'));
    code += counts.code;
    comment += counts.comment;
  }
  return { code, comment, share: code === 0 ? 0 : comment / code };
}

if (import.meta.filename === process.argv[1]) {
  const root = join(import.meta.dirname, '..');
  const folders = process.argv.length > 2 ? process.argv.slice(2) : sourceFolders;
  console.log('folder          code  comment  share');
  for (const folder of folders) {
    const { code, comment, share } = commentShare(root, folder);
    console.log(
      `${folder.padEnd(14)} ${String(code).padStart(5)}  ${String(comment).padStart(7)}  ${(100 * share).toFixed(1)} %`,
    );
  }
}
