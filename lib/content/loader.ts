import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { isLocale, localePath, type Locale } from '../locales.ts';
import { renderMarkdown } from './markdown.ts';
import {
  type AuthorFrontmatter,
  checkAuthorFrontmatter,
  checkPageFrontmatter,
  type FieldProblem,
  type PageFrontmatter,
  slugPattern,
} from './schema.ts';
import type { TocEntry } from './types.ts';

/**
 * Reads a content folder into memory: frontmatter parsed and validated, Markdown rendered to
 * sanitized HTML. Runs once at start (and on every edit in dev); nothing here runs per request.
 *
 *   {root}/{locale}/index.md           home introduction   /
 *   {root}/{locale}/asdas/{slug}.md    article             /asdas/{slug}
 *   {root}/{locale}/a/b.md             section             /a/b   (a/index.md is /a)
 *   {root}/authors/{slug}.{locale}.md  author (body = bio) /author/{slug}
 */

export const articlesFolder = 'asdas';

/** Paths the application itself serves: a content page cannot take them. */
const reservedFirstSegments = new Set([
  'th',
  'en',
  'api',
  'builds',
  'assets',
  'author',
  'login',
  'registration',
  'table-of-content',
  'healthz',
  'readyz',
]);

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

interface SourceFile {
  /** Relative to the root, with `/` separators. */
  rel: string;
  absolute: string;
  display: string;
}

async function walk(root: string, display: (absolute: string) => string): Promise<SourceFile[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const rel = path.relative(root, absolute).split(path.sep).join('/');
    // Editor droppings and hidden files: `.x.md.swp`, `.#x.md`, `x.md~`.
    if (rel.split('/').some((segment) => segment.startsWith('.'))) continue;
    if (!rel.endsWith('.md')) continue;
    files.push({ rel, absolute, display: display(absolute) });
  }
  return files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

const frontmatterPattern = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

function splitFrontmatter(text: string): { data: unknown; body: string } | FieldProblem {
  const match = frontmatterPattern.exec(text);
  if (!match) return { field: 'frontmatter', message: 'the file must start with a frontmatter block between "---" lines' };
  const document = parseDocument(match[1] ?? '', { schema: 'core', prettyErrors: false, uniqueKeys: true });
  if (document.errors.length) {
    const first = document.errors[0]!;
    return { field: 'frontmatter', message: `the frontmatter is not valid YAML: ${first.message.split('\n')[0]}` };
  }
  return { data: document.toJS() ?? {}, body: text.slice(match[0].length) };
}

type Route =
  | { kind: 'home' | 'section'; locale: Locale; path: string }
  | { kind: 'article'; locale: Locale; path: string; slug: string }
  | { kind: 'author'; locale: Locale; slug: string }
  | { problem: string };

function routeOf(rel: string): Route {
  const segments = rel.split('/');
  const [first, ...rest] = segments;
  if (first === 'authors') {
    const match = rest.length === 1 ? /^(.+)\.([a-z]{2})\.md$/.exec(rest[0]!) : null;
    if (!match) return { problem: 'an author file must be named authors/{slug}.{locale}.md (e.g. authors/jane-doe.en.md)' };
    const [, slug, locale] = match;
    if (!isLocale(locale)) return { problem: `"${locale}" is not a locale of this site (en, th)` };
    if (!slugPattern.test(slug!)) return { problem: `"${slug}" is not a valid author slug (lowercase words joined by "-")` };
    return { kind: 'author', locale, slug: slug! };
  }
  if (!isLocale(first) || rest.length === 0) {
    return { problem: 'content files live in en/, th/ or authors/' };
  }
  const locale = first;
  const names = [...rest];
  names[names.length - 1] = names[names.length - 1]!.replace(/\.md$/, '');
  if (names.length === 1 && names[0] === 'index') return { kind: 'home', locale, path: '/' };
  if (names[0] === articlesFolder) {
    if (names.length !== 2 || names[1] === 'index') {
      return { problem: `articles are files directly in ${locale}/${articlesFolder}/ named {slug}.md (index.md is not allowed)` };
    }
    const slug = names[1]!;
    if (!slugPattern.test(slug)) return { problem: `"${slug}" is not a valid article slug (lowercase words joined by "-")` };
    return { kind: 'article', locale, path: `/${articlesFolder}/${slug}`, slug };
  }
  if (names[names.length - 1] === 'index') names.pop();
  const bad = names.find((name) => !slugPattern.test(name));
  if (bad !== undefined) return { problem: `"${bad}" cannot be part of an address (lowercase words joined by "-")` };
  if (reservedFirstSegments.has(names[0]!)) {
    return { problem: `/${names[0]} is served by the application itself and cannot be a content page` };
  }
  return { kind: 'section', locale, path: `/${names.join('/')}` };
}

function bodyProblems(rendered: { h1Count: number }): FieldProblem[] {
  if (rendered.h1Count === 0) return [];
  return [{ field: 'body', message: 'the body must not contain a level-1 heading ("# ..."): the page title comes from "title"; start sections at "##"' }];
}

/** Plain text of an HTML fragment we rendered ourselves (sanitized, no scripts or comments). */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface LoadOptions {
  /** How files are named in messages; defaults to the path relative to the working directory. */
  display?: (absolute: string) => string;
}

function defaultDisplay(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative.split(path.sep).join('/') : absolute;
}

/** Loads every content file under `root`. Never throws for bad content: problems come back as `issues`. */
export async function loadContent(root: string, options: LoadOptions = {}): Promise<ContentSnapshot> {
  const display = options.display ?? defaultDisplay;
  const issues: ContentIssue[] = [];
  const hash = createHash('sha256');
  let files: SourceFile[];
  try {
    files = await walk(root, display);
  } catch (error) {
    const issue = { file: display(root), field: 'file', message: `cannot read the content folder: ${(error as Error).message}` };
    return { root, pages: [], authors: [], issues: [issue], version: 'empty' };
  }

  // A file can vanish between the walk and the read (an editor saving, a watcher racing a delete):
  // it is simply not part of this load.
  const read = await Promise.all(files.map((file) => readFile(file.absolute, 'utf8').catch(() => null)));
  files = files.filter((_, index) => read[index] !== null);
  const texts = read.filter((text): text is string => text !== null);
  const pages: PageEntry[] = [];
  const authors: AuthorEntry[] = [];
  const pending: { entry: PageEntry; source: SourceFile }[] = [];
  const seenPaths = new Map<string, string>();

  files.forEach((file, index) => {
    const text = texts[index]!;
    hash.update(file.rel).update('\0').update(text).update('\0');
    const route = routeOf(file.rel);
    if ('problem' in route) {
      issues.push({ file: file.display, field: 'file', message: route.problem });
      return;
    }
    const pagePath = route.kind === 'author' ? localePath(route.locale, `/author/${route.slug}`) : localePath(route.locale, route.path);
    const report = (problems: FieldProblem[]) => {
      for (const problem of problems) issues.push({ file: file.display, ...problem, pagePath });
    };
    const split = splitFrontmatter(text);
    if ('field' in split) return report([split]);

    if (route.kind === 'author') {
      const checked = checkAuthorFrontmatter(split.data);
      if (!checked.ok) return report(checked.problems);
      const rendered = renderMarkdown(split.body, route.locale);
      const problems = bodyProblems(rendered);
      if (problems.length) return report(problems);
      authors.push({
        slug: route.slug,
        locale: route.locale,
        file: file.display,
        meta: checked.value,
        bioHtml: rendered.html,
        bioText: textOf(rendered.html),
      });
      return;
    }

    const key = `${route.locale}:${route.path}`;
    const previous = seenPaths.get(key);
    if (previous) {
      return report([{ field: 'file', message: `${pagePath} is already served by ${previous}` }]);
    }
    seenPaths.set(key, file.display);
    const checked = checkPageFrontmatter(split.data);
    if (!checked.ok) return report(checked.problems);
    const rendered = renderMarkdown(split.body, route.locale);
    const problems = bodyProblems(rendered);
    if (problems.length) return report(problems);
    const entry: PageEntry = {
      kind: route.kind,
      locale: route.locale,
      path: route.path,
      ...(route.kind === 'article' ? { slug: route.slug } : {}),
      file: file.display,
      meta: checked.value,
      html: rendered.html,
      toc: rendered.toc,
      readingMinutes: rendered.readingMinutes,
    };
    pending.push({ entry, source: file });
  });

  // Authors are checked once every file is read: an author exists when any of its files does
  // (a broken author file is reported on its own and does not make every article fail too).
  const authorSlugs = new Set<string>();
  for (const file of files) {
    const route = routeOf(file.rel);
    if (!('problem' in route) && route.kind === 'author') authorSlugs.add(route.slug);
  }
  for (const { entry } of pending) {
    if (!authorSlugs.has(entry.meta.author)) {
      const known = [...authorSlugs].sort().join(', ') || 'none';
      issues.push({
        file: entry.file,
        field: 'author',
        message: `"author" names an unknown author "${entry.meta.author}" (known authors: ${known}; add ${display(path.join(root, 'authors', `${entry.meta.author}.en.md`))})`,
        pagePath: localePath(entry.locale, entry.path),
      });
      continue;
    }
    pages.push(entry);
  }

  if (!pages.some((page) => page.kind === 'home' && page.locale === 'en') && !issues.some((issue) => issue.pagePath === '/')) {
    issues.push({
      file: display(path.join(root, 'en', 'index.md')),
      field: 'file',
      message: 'the English home introduction is missing (create it with title, description, author and published)',
      pagePath: '/',
    });
  }

  return { root, pages, authors, issues, version: hash.digest('hex').slice(0, 16) };
}
