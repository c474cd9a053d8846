import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import postcss, { CssSyntaxError } from 'postcss';
import t from 'tap';
import { projectRoot } from '../../lib/build-info.ts';

/**
 * Problems in a stylesheet that browsers (and Vite's build) would swallow silently: a syntax
 * error (an unclosed block swallows every rule after it), or a rule inside a rule. The project
 * writes no nested CSS, so a nested rule is a missing `}` that nesting-aware parsers accept.
 */
function stylesheetProblems(source: string, file: string): string[] {
  let root;
  try {
    root = postcss.parse(source, { from: file });
  } catch (error) {
    if (error instanceof CssSyntaxError) return [`${file}:${error.line}:${error.column}: ${error.reason}`];
    throw error;
  }
  const problems: string[] = [];
  root.walkRules((rule) => {
    if (rule.parent?.type === 'rule') {
      problems.push(
        `${file}:${rule.source?.start?.line}: '${rule.selector}' is nested inside '${(rule.parent as { selector: string }).selector}' (a missing '}'?)`,
      );
    }
  });
  return problems;
}

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return cssFiles(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

t.test('every stylesheet under client/ parses strictly, with no rule nested in another', async (t) => {
  const files = cssFiles(join(projectRoot, 'client'));
  t.ok(files.length > 0, 'there are stylesheets to check');
  for (const file of files) {
    const name = relative(projectRoot, file);
    t.same(stylesheetProblems(readFileSync(file, 'utf8'), name), [], name);
  }
});

t.test('the check catches the mistakes it is there for', async (t) => {
  const unclosed = '.signed-in {\n  color: grey;\n\n.icon { display: inline-block; }\n';
  t.match(stylesheetProblems(unclosed, 'unclosed.css'), [/unclosed\.css:1:1: Unclosed block/]);
  const balancedButNested = '.a {\n  color: red;\n.b { color: blue; }\n}\n';
  t.match(stylesheetProblems(balancedButNested, 'nested.css'), [/nested\.css:3: '\.b' is nested inside '\.a'/]);
  t.same(
    stylesheetProblems('@media (min-width: 60rem) { .a { color: red; } }', 'media.css'),
    [],
    'rules inside @media are fine',
  );
});
