import { parseDocument } from 'yaml';
import type { FieldProblem } from './schema.ts';

const frontmatterPattern = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** The YAML block between the leading `---` lines, parsed, and the Markdown after it. */
export function splitFrontmatter(text: string): { data: unknown; body: string } | FieldProblem {
  const match = frontmatterPattern.exec(text);
  if (!match)
    return { field: 'frontmatter', message: 'the file must start with a frontmatter block between "---" lines' };
  const document = parseDocument(match[1] ?? '', { schema: 'core', prettyErrors: false, uniqueKeys: true });
  if (document.errors.length) {
    const first = document.errors[0]!;
    return { field: 'frontmatter', message: `the frontmatter is not valid YAML: ${first.message.split('\n')[0]}` };
  }
  return { data: document.toJS() ?? {}, body: text.slice(match[0].length) };
}
