import type { Locale } from '../../contract/locales.ts';
import type { TocEntry } from '../../contract/content.ts';
import type { AuthorFrontmatter, PageFrontmatter } from './schema.ts';

// What a content load hands over (loader.ts makes it, on its own thread in production): the
// snapshot's shapes, and the problems found in the files. Nothing here imports the Markdown
// pipeline, so the server's thread can use these without loading it.

/** A problem with one content file, worded for the person who edits it. */
export interface ContentIssue {
  /** The file as the operator sees it, e.g. `content/en/asdas/x.md`. */
  file: string;
  /** The frontmatter field, or `frontmatter`, `body`, `file` for the file as a whole. */
  field: string;
  message: string;
  /** The page the file would have served (locale-aware), when it maps to one. */
  pagePath?: string;
}

export function formatIssue(issue: ContentIssue): string {
  return `${issue.file}: ${issue.message}`;
}

/** Thrown when content has problems (in production start-up stops with it). */
export class ContentError extends Error {
  override name = 'ContentError';
  constructor(readonly issues: ContentIssue[]) {
    super(
      issues.length === 1
        ? `Invalid content: ${formatIssue(issues[0]!)}`
        : `Invalid content (${issues.length} problems):\n${issues.map((issue) => `  ${formatIssue(issue)}`).join('\n')}`,
    );
  }
}

export interface RenderedBody {
  html: string;
  toc: TocEntry[];
  readingMinutes: number;
}

export interface PageEntry extends RenderedBody {
  kind: 'home' | 'section' | 'article';
  locale: Locale;
  /** Without the locale prefix: `/`, `/bonus`, `/asdas/x`. */
  path: string;
  /** Articles only. */
  slug?: string;
  file: string;
  meta: PageFrontmatter;
}

export interface AuthorEntry {
  slug: string;
  locale: Locale;
  file: string;
  meta: AuthorFrontmatter;
  bioHtml: string;
  /** The bio as plain text (for descriptions). */
  bioText: string;
}

export interface ContentSnapshot {
  root: string;
  pages: PageEntry[];
  authors: AuthorEntry[];
  issues: ContentIssue[];
  /** Changes whenever any content file changes (a hash of paths and bytes). */
  version: string;
}
