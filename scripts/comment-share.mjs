// `node scripts/comment-share.mjs [folder ...]`: comment lines against code lines in each folder's
// .ts/.tsx files (default: client lib plugins routes contract). A line counts as a comment line when
// it holds comments and nothing else, as a code line when it holds any code; blank lines count as
// neither. The files are parsed by TypeScript, so a string or a regex that looks like a comment is code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const folders = process.argv.length > 2 ? process.argv.slice(2) : ['client', 'lib', 'plugins', 'routes', 'contract'];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function count(path) {
  const text = readFileSync(path, 'utf8');
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const mark = (lines, start, end) => {
    for (let line = lineOf(start); line <= lineOf(end); line += 1) lines.add(line);
  };
  const code = new Set();
  const comment = new Set();
  // Every token of the parsed file (a template's parts, a regex, JSX text are tokens too), and the
  // comments before and after each.
  const visit = (node) => {
    // A JSDoc comment is parsed into nodes of its own: it is a comment, whatever is inside.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) {
      return mark(comment, node.getStart(source), node.getEnd());
    }
    const children = node.getChildren(source);
    if (children.length > 0) return children.forEach(visit);
    if (node.kind === ts.SyntaxKind.EndOfFileToken) {
      for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) mark(comment, range.pos, range.end);
      return;
    }
    mark(code, node.getStart(source), node.getEnd());
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.end) ?? []),
    ]) {
      mark(comment, range.pos, range.end);
    }
  };
  visit(source);
  for (const line of code) comment.delete(line);
  return { code: code.size, comment: comment.size };
}

console.log('folder      code  comment  share');
for (const folder of folders) {
  const total = files(folder)
    .map(count)
    .reduce((sum, file) => ({ code: sum.code + file.code, comment: sum.comment + file.comment }), {
      code: 0,
      comment: 0,
    });
  console.log(
    `${folder.padEnd(10)} ${String(total.code).padStart(5)}  ${String(total.comment).padStart(7)}  ${((100 * total.comment) / total.code).toFixed(1).padStart(4)} %`,
  );
}
