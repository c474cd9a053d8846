import { localePath, locales, type Locale } from '../../contract/locales.ts';
import type { SeoData, SeoLink } from '../../contract/seo.ts';
import { labels } from './labels.ts';
import type { AuthorEntry, ContentSnapshot, PageEntry } from './snapshot.ts';
import { articlesFolder } from './source-files.ts';
import type { ArticleSummary, AuthorByline, PageContent } from '../../contract/content.ts';

// Twelve fills every row of a grid of one, two, three or four columns (client/styles/page.css).
export const articlePageSize = 12;
export const latestArticleCount = 6;
export const siteTocPath = '/table-of-content';
export const authorsPath = '/author';
export const articlesPath = `/${articlesFolder}`;

/** A locale's text of a page or author, or another locale's shown in its place (`fallback`). */
export interface Resolved<T> {
  entry: T;
  fallback: boolean;
}

type ByLocale<T> = Partial<Record<Locale, T>>;

/** Freezes a value and everything in it: built data is shared between requests. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Pages and authors by path and locale, and the pieces page views share; dropped once the index is built. */
export class ContentCatalog {
  /** By path without locale prefix; drafts only when they are shown. */
  readonly pages = new Map<string, ByLocale<PageEntry>>();
  /** Every author a page names exists here, even without a file. */
  readonly authors = new Map<string, ByLocale<AuthorEntry>>();

  constructor(snapshot: ContentSnapshot, showDrafts: boolean) {
    for (const page of snapshot.pages) {
      if (page.meta.draft && !showDrafts) continue;
      const byLocale = this.pages.get(page.path) ?? {};
      byLocale[page.locale] = page;
      this.pages.set(page.path, byLocale);
    }
    // Even one whose file has a problem (reported on its own).
    for (const page of snapshot.pages) if (!this.authors.has(page.meta.author)) this.authors.set(page.meta.author, {});
    for (const author of snapshot.authors) {
      const byLocale = this.authors.get(author.slug) ?? {};
      byLocale[author.locale] = author;
      this.authors.set(author.slug, byLocale);
    }
  }

  /** This locale's text of a page, or the English one marked as a fallback. */
  resolve(locale: Locale, path: string): Resolved<PageEntry> | undefined {
    const byLocale = this.pages.get(path);
    const own = byLocale?.[locale];
    if (own) return { entry: own, fallback: false };
    const english = locale === 'en' ? undefined : byLocale?.en;
    return english ? { entry: english, fallback: true } : undefined;
  }

  /** The locales a page really exists in. */
  alternates(path: string): Locale[] {
    const byLocale = this.pages.get(path) ?? {};
    return locales.filter((locale) => byLocale[locale]);
  }

  author(slug: string, locale: Locale): Resolved<AuthorEntry> | undefined {
    const byLocale = this.authors.get(slug);
    const own = byLocale?.[locale];
    if (own) return { entry: own, fallback: false };
    const other = byLocale?.en ?? byLocale?.th;
    return other ? { entry: other, fallback: true } : undefined;
  }

  byline(slug: string, locale: Locale): AuthorByline {
    const author = this.author(slug, locale)?.entry;
    return {
      slug,
      name: author?.meta.name ?? slug,
      role: author?.meta.role ?? '',
      path: localePath(locale, `${authorsPath}/${slug}`),
    };
  }

  articleSlugs(): string[] {
    const prefix = `${articlesPath}/`;
    return [...this.pages.keys()].filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  }

  sectionPaths(): string[] {
    return [...this.pages.entries()]
      .filter(([, byLocale]) => (byLocale.en ?? byLocale.th)?.kind === 'section')
      .map(([path]) => path);
  }

  breadcrumbs(locale: Locale, ...rest: SeoLink[]): SeoLink[] {
    return [{ name: labels[locale].home, path: localePath(locale, '/') }, ...rest];
  }

  summary(locale: Locale, resolved: Resolved<PageEntry>): ArticleSummary {
    const { entry, fallback } = resolved;
    const { meta } = entry;
    const byline = this.byline(meta.author, locale);
    return {
      slug: entry.slug!,
      path: localePath(locale, entry.path),
      title: meta.title,
      description: meta.description,
      author: { slug: byline.slug, name: byline.name, path: byline.path },
      published: meta.published,
      ...(meta.updated ? { updated: meta.updated } : {}),
      readingMinutes: entry.readingMinutes,
      tags: [...meta.tags],
      fallback,
      ...(meta.draft ? { draft: true as const } : {}),
    };
  }

  pageContent(locale: Locale, resolved: Resolved<PageEntry>): PageContent {
    const { entry, fallback } = resolved;
    const { meta } = entry;
    return {
      path: localePath(locale, entry.path),
      title: meta.title,
      description: meta.description,
      html: entry.html,
      toc: entry.toc,
      published: meta.published,
      ...(meta.updated ? { updated: meta.updated } : {}),
      readingMinutes: entry.readingMinutes,
      author: this.byline(meta.author, locale),
      fallback,
      ...(meta.draft ? { draft: true as const } : {}),
    };
  }

  pageSeo(locale: Locale, entry: PageEntry, type: SeoData['type'], breadcrumbs: SeoLink[]): SeoData {
    const { meta } = entry;
    const byline = this.byline(meta.author, locale);
    return {
      title: meta.title,
      description: meta.description,
      path: entry.path,
      alternates: this.alternates(entry.path),
      type,
      publishedTime: meta.published,
      ...(meta.updated ? { modifiedTime: meta.updated } : {}),
      author: { name: byline.name, path: byline.path },
      breadcrumbs,
      ...(meta.image ? { image: meta.image } : {}),
      ...(type === 'article' && meta.tags.length ? { tags: [...meta.tags] } : {}),
      ...(meta.draft ? { noindex: true } : {}),
    };
  }

  /** A page the site makes itself (lists, the table of contents) exists in every locale. */
  generatedSeo(path: string, title: string, description: string, breadcrumbs: SeoLink[]): SeoData {
    return { title, description, path, alternates: [...locales], type: 'website', breadcrumbs };
  }
}
