import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isLocale, type Locale } from '../../contract/locales.ts';
import { slugPattern } from './schema.ts';

/**
 * The content folder's files and the address each one serves:
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

export interface SourceFile {
  rel: string;
  absolute: string;
  display: string;
}

export async function walk(root: string, display: (absolute: string) => string): Promise<SourceFile[]> {
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

export type Route =
  | { kind: 'home' | 'section'; locale: Locale; path: string }
  | { kind: 'article'; locale: Locale; path: string; slug: string }
  | { kind: 'author'; locale: Locale; slug: string }
  | { problem: string };

export function routeOf(rel: string): Route {
  const segments = rel.split('/');
  const [first, ...rest] = segments;
  if (first === 'authors') {
    const match = rest.length === 1 ? /^(.+)\.([a-z]{2})\.md$/.exec(rest[0]!) : null;
    if (!match)
      return { problem: 'an author file must be named authors/{slug}.{locale}.md (e.g. authors/jane-doe.en.md)' };
    const [, slug, locale] = match;
    if (!isLocale(locale)) return { problem: `"${locale}" is not a locale of this site (en, th)` };
    if (!slugPattern.test(slug!))
      return { problem: `"${slug}" is not a valid author slug (lowercase words joined by "-")` };
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
      return {
        problem: `articles are files directly in ${locale}/${articlesFolder}/ named {slug}.md (index.md is not allowed)`,
      };
    }
    const slug = names[1]!;
    if (!slugPattern.test(slug))
      return { problem: `"${slug}" is not a valid article slug (lowercase words joined by "-")` };
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

/** Only for HTML we rendered ourselves (sanitized, no scripts or comments). */
export function textOf(html: string): string {
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

export interface Sources {
  files: SourceFile[];
  texts: string[];
  /** A hash of the files' paths and bytes: the snapshot's `version`. */
  version: string;
}

/** The content files and their text, unparsed; one that vanishes meanwhile (an editor saving) is left out. */
export async function readSources(root: string, display: (absolute: string) => string): Promise<Sources> {
  const found = await walk(root, display);
  const read = await Promise.all(found.map((file) => readFile(file.absolute, 'utf8').catch(() => null)));
  const files = found.filter((_, index) => read[index] !== null);
  const texts = read.filter((text): text is string => text !== null);
  const hash = createHash('sha256');
  files.forEach((file, index) => hash.update(file.rel).update('\0').update(texts[index]!).update('\0'));
  return { files, texts, version: hash.digest('hex').slice(0, 16) };
}
