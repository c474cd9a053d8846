// `node scripts/comment-share.mjs [folder ...]`: comment lines against code lines in each folder's
// .ts/.tsx files (default: client lib plugins routes contract). A line counts as a comment line when
// it holds comments and nothing else, as a code line when it holds any code; blank lines count as
// neither. TypeScript's own scanner reads the files, so strings that look like comments are code.
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
  const lineOf = (position) => ts.getLineAndCharacterOfPosition(source, position).line;
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    false,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    path.endsWith('.tsx') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
    text,
  );
  const code = new Set();
  const comment = new Set();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    const [start, end] = [lineOf(scanner.getTokenStart()), lineOf(scanner.getTokenEnd())];
    const lines =
      kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia ? comment : code;
    for (let line = start; line <= end; line += 1) lines.add(line);
  }
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
