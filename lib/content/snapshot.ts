import type { Locale } from '../../contract/locales.ts';
import type { TocEntry } from '../../contract/content.ts';
import type { AuthorFrontmatter, PageFrontmatter } from './schema.ts';

// What a content load hands over. Nothing here imports the Markdown pipeline (decision 0022).

/** Worded for the person who edits the file. */
export interface ContentIssue {
  file: string;
  /** The frontmatter field, or `frontmatter`, `body`, `file` for the file as a whole. */
  field: string;
  message: string;
  /** Locale-aware. */
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
  /** Without the locale prefix. */
  path: string;
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
  bioText: string;
}

export interface ContentSnapshot {
  root: string;
  pages: PageEntry[];
  authors: AuthorEntry[];
  issues: ContentIssue[];
  /** A hash of the files' paths and bytes. */
  version: string;
}
