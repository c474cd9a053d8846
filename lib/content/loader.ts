import path from 'node:path';
import { localePath } from '../../contract/locales.ts';
import { renderMarkdown } from './markdown.ts';
import { checkAuthorFrontmatter, checkPageFrontmatter, type FieldProblem } from './schema.ts';
import { splitFrontmatter } from './frontmatter.ts';
import type { AuthorEntry, ContentIssue, ContentSnapshot, PageEntry } from './snapshot.ts';
import { readSources, routeOf, type SourceFile, type Sources, textOf } from './source-files.ts';

/** Reads a content folder into memory, at start and on every edit in dev; never per request. */

function bodyProblems(rendered: { h1Count: number }): FieldProblem[] {
  if (rendered.h1Count === 0) return [];
  return [
    {
      field: 'body',
      message:
        'the body must not contain a level-1 heading ("# ..."): the page title comes from "title"; start sections at "##"',
    },
  ];
}

export interface LoadOptions {
  /** How files are named in messages; defaults to the path relative to the working directory. */
  display?: (absolute: string) => string;
}

function defaultDisplay(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative.split(path.sep).join('/')
    : absolute;
}

/** Loads every content file under `root`. Never throws for bad content: problems come back as `issues`. */
export async function loadContent(root: string, options: LoadOptions = {}): Promise<ContentSnapshot> {
  const display = options.display ?? defaultDisplay;
  const issues: ContentIssue[] = [];
  let sources: Sources;
  try {
    sources = await readSources(root, display);
  } catch (error) {
    const issue = {
      file: display(root),
      field: 'file',
      message: `cannot read the content folder: ${(error as Error).message}`,
    };
    return { root, pages: [], authors: [], issues: [issue], version: 'empty' };
  }
  const { files, texts, version } = sources;
  const pages: PageEntry[] = [];
  const authors: AuthorEntry[] = [];
  const pending: { entry: PageEntry; source: SourceFile }[] = [];
  const seenPaths = new Map<string, string>();

  files.forEach((file, index) => {
    const text = texts[index]!;
    const route = routeOf(file.rel);
    if ('problem' in route) {
      issues.push({ file: file.display, field: 'file', message: route.problem });
      return;
    }
    const pagePath =
      route.kind === 'author'
        ? localePath(route.locale, `/author/${route.slug}`)
        : localePath(route.locale, route.path);
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

  // An author exists when any of its files does: a broken author file does not fail its articles too.
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

  if (
    !pages.some((page) => page.kind === 'home' && page.locale === 'en') &&
    !issues.some((issue) => issue.pagePath === '/')
  ) {
    issues.push({
      file: display(path.join(root, 'en', 'index.md')),
      field: 'file',
      message: 'the English home introduction is missing (create it with title, description, author and published)',
      pagePath: '/',
    });
  }

  return { root, pages, authors, issues, version };
}
