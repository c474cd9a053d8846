import { localePath, locales, type Locale } from '../../contract/locales.ts';
import type { SeoLink } from '../../contract/seo.ts';
import {
  articlePageSize,
  articlesPath,
  authorsPath,
  type ContentCatalog,
  deepFreeze,
  latestArticleCount,
  type Resolved,
  siteTocPath,
} from './catalog.ts';
import { labels } from './labels.ts';
import type { PageEntry } from './snapshot.ts';
import type {
  ArticleData,
  ArticleLink,
  ArticleListData,
  ArticleSummary,
  AuthorPageData,
  AuthorProfile,
  AuthorsPageData,
  AuthorSummary,
  ContentPageData,
  HomeData,
  SectionPageData,
  SiteLink,
  SiteTocPageData,
} from '../../contract/content.ts';

/** Every content page of one locale, as its data source answers it (deep-frozen). */
export interface LocalePages {
  articleList: ArticleListData;
  articles: Map<string, ArticleData>;
  home: HomeData | undefined;
  /** The catch-all's pages, by path without slashes at either end. */
  contentPages: Map<string, ContentPageData>;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

const isResolved = (resolved: Resolved<PageEntry> | undefined): resolved is Resolved<PageEntry> => Boolean(resolved);

export function buildLocalePages(catalog: ContentCatalog, locale: Locale): LocalePages {
  const text = labels[locale];
  const contentPages = new Map<string, ContentPageData>();
  const keep = (path: string, data: ContentPageData) => contentPages.set(path.slice(1), deepFreeze(data));

  // Articles newest first (then by slug, so equal dates keep a stable order): the order of
  // previous and next. Lists and neighbours name only the articles written in this language; one
  // shown in English in its place keeps its page, reached by its address alone.
  const chronological = catalog
    .articleSlugs()
    .map((slug) => catalog.resolve(locale, `${articlesPath}/${slug}`))
    .filter(isResolved)
    .sort((a, b) => {
      const byDate = b.entry.meta.published.localeCompare(a.entry.meta.published);
      return byDate || a.entry.slug!.localeCompare(b.entry.slug!);
    });
  const summaryOf = new Map(chronological.map((resolved) => [resolved, catalog.summary(locale, resolved)]));
  const summaries = chronological.filter((resolved) => !resolved.fallback).map((resolved) => summaryOf.get(resolved)!);
  const articlesCrumb: SeoLink = { name: text.articles, path: localePath(locale, articlesPath) };
  const articleList = deepFreeze({
    articles: summaries,
    pageSize: articlePageSize,
    seo: catalog.generatedSeo(
      articlesPath,
      text.articles,
      text.articlesDescription,
      catalog.breadcrumbs(locale, articlesCrumb),
    ),
  });

  const intro = catalog.resolve(locale, '/');
  const home = intro
    ? deepFreeze({
        intro: catalog.pageContent(locale, intro),
        latestArticles: summaries.slice(0, latestArticleCount),
        seo: catalog.pageSeo(locale, intro.entry, 'website', catalog.breadcrumbs(locale)),
      })
    : undefined;

  const sections = sectionsOf(catalog, locale);
  for (const resolved of sections) keep(resolved.entry.path, sectionPage(catalog, locale, resolved));

  const authorsCrumb: SeoLink = { name: text.authors, path: localePath(locale, authorsPath) };
  const profiles = authorSummaries(catalog, locale, summaries);
  keep(authorsPath, {
    kind: 'authors',
    authors: profiles,
    seo: catalog.generatedSeo(
      authorsPath,
      text.authors,
      text.authorsDescription,
      catalog.breadcrumbs(locale, authorsCrumb),
    ),
  } satisfies AuthorsPageData);
  for (const slug of catalog.authors.keys()) {
    keep(`${authorsPath}/${slug}`, authorPage(catalog, locale, slug, summaries, authorsCrumb));
  }

  keep(siteTocPath, siteToc(catalog, locale, { intro, sections, summaries, profiles }));

  return {
    articleList,
    articles: articlePages(
      catalog,
      locale,
      chronological,
      chronological.map((resolved) => summaryOf.get(resolved)!),
      articlesCrumb,
    ),
    home,
    contentPages,
  };
}

/** `next` is the newer one, `previous` the older one, each the nearest in the reader's language. */
function articlePages(
  catalog: ContentCatalog,
  locale: Locale,
  articles: Resolved<PageEntry>[],
  summaries: ArticleSummary[],
  articlesCrumb: SeoLink,
): Map<string, ArticleData> {
  const pages = new Map<string, ArticleData>();
  const link = (index: number): ArticleLink | undefined => {
    const summary = summaries[index];
    return summary && { slug: summary.slug, title: summary.title, path: summary.path };
  };
  const nearest = (from: number, step: 1 | -1) => {
    let index = from + step;
    while (index >= 0 && index < articles.length && articles[index]!.fallback) index += step;
    return index;
  };
  articles.forEach((resolved, index) => {
    const summary = summaries[index]!;
    const { entry } = resolved;
    const next = link(nearest(index, -1));
    const previous = link(nearest(index, 1));
    const data: ArticleData = {
      article: { ...summary, html: entry.html, toc: entry.toc, author: catalog.byline(entry.meta.author, locale) },
      ...(previous ? { previous } : {}),
      ...(next ? { next } : {}),
      seo: catalog.pageSeo(
        locale,
        entry,
        'article',
        catalog.breadcrumbs(locale, articlesCrumb, { name: entry.meta.title, path: summary.path }),
      ),
    };
    pages.set(summary.slug, deepFreeze(data));
  });
  return pages;
}

/** Sections (any other Markdown page), ordered by `order`, then title. */
function sectionsOf(catalog: ContentCatalog, locale: Locale): Resolved<PageEntry>[] {
  return catalog
    .sectionPaths()
    .map((path) => catalog.resolve(locale, path))
    .filter(isResolved)
    .sort((a, b) => {
      const byOrder = (a.entry.meta.order ?? Number.MAX_SAFE_INTEGER) - (b.entry.meta.order ?? Number.MAX_SAFE_INTEGER);
      return byOrder || a.entry.meta.title.localeCompare(b.entry.meta.title, locale);
    });
}

function sectionPage(catalog: ContentCatalog, locale: Locale, resolved: Resolved<PageEntry>): SectionPageData {
  const { entry } = resolved;
  const crumbs: SeoLink[] = [];
  // Nested sections (`/guides/x`) show their parents when those are pages too.
  const segments = entry.path.split('/').slice(1);
  for (let depth = 1; depth < segments.length; depth += 1) {
    const parentPath = `/${segments.slice(0, depth).join('/')}`;
    const parent = catalog.resolve(locale, parentPath);
    if (parent) crumbs.push({ name: parent.entry.meta.title, path: localePath(locale, parentPath) });
  }
  crumbs.push({ name: entry.meta.title, path: localePath(locale, entry.path) });
  return {
    kind: 'section',
    page: catalog.pageContent(locale, resolved),
    seo: catalog.pageSeo(locale, entry, 'website', catalog.breadcrumbs(locale, ...crumbs)),
  };
}

/** Every author, by name, with the number of articles this locale shows. */
function authorSummaries(catalog: ContentCatalog, locale: Locale, summaries: ArticleSummary[]): AuthorSummary[] {
  return [...catalog.authors.keys()]
    .map((slug) => {
      const resolved = catalog.author(slug, locale);
      return {
        ...catalog.byline(slug, locale),
        avatar: resolved?.entry.meta.avatar ?? slug.slice(0, 2).toUpperCase(),
        articleCount: summaries.filter((summary) => summary.author.slug === slug).length,
        fallback: resolved?.fallback ?? true,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

function authorPage(
  catalog: ContentCatalog,
  locale: Locale,
  slug: string,
  summaries: ArticleSummary[],
  authorsCrumb: SeoLink,
): AuthorPageData {
  const text = labels[locale];
  const resolved = catalog.author(slug, locale);
  const byline = catalog.byline(slug, locale);
  const profile: AuthorProfile = {
    ...byline,
    avatar: resolved?.entry.meta.avatar ?? slug.slice(0, 2).toUpperCase(),
    bioHtml: resolved?.entry.bioHtml ?? '',
    fallback: resolved?.fallback ?? true,
  };
  const bio = resolved?.entry.bioText;
  return {
    kind: 'author',
    author: profile,
    articles: summaries.filter((summary) => summary.author.slug === slug),
    seo: {
      title: byline.name,
      description: bio ? truncate(bio, 200) : text.authorDescription(byline.name, byline.role),
      path: `${authorsPath}/${slug}`,
      alternates: locales.filter((code) => catalog.authors.get(slug)?.[code]),
      type: 'website',
      breadcrumbs: catalog.breadcrumbs(locale, authorsCrumb, { name: byline.name, path: byline.path }),
    },
  };
}

function siteToc(
  catalog: ContentCatalog,
  locale: Locale,
  parts: {
    intro: Resolved<PageEntry> | undefined;
    sections: Resolved<PageEntry>[];
    summaries: ArticleSummary[];
    profiles: AuthorSummary[];
  },
): SiteTocPageData {
  const text = labels[locale];
  const siteLink = (title: string, path: string, description: string | undefined, fallback: boolean): SiteLink => ({
    title,
    path: localePath(locale, path),
    ...(description ? { description } : {}),
    fallback,
  });
  const sectionLinks: SiteLink[] = [];
  if (parts.intro)
    sectionLinks.push(siteLink(text.home, '/', parts.intro.entry.meta.description, parts.intro.fallback));
  for (const { entry, fallback } of parts.sections) {
    sectionLinks.push(siteLink(entry.meta.title, entry.path, entry.meta.description, fallback));
  }
  return {
    kind: 'toc',
    groups: [
      { id: 'sections', title: text.sections, items: sectionLinks },
      {
        id: 'articles',
        title: text.articles,
        path: localePath(locale, articlesPath),
        items: parts.summaries.map((summary) => ({
          title: summary.title,
          path: summary.path,
          description: summary.description,
          fallback: summary.fallback,
        })),
      },
      {
        id: 'authors',
        title: text.authors,
        path: localePath(locale, authorsPath),
        items: parts.profiles.map((author) => ({
          title: author.name,
          path: author.path,
          description: author.role,
          fallback: author.fallback,
        })),
      },
    ],
    seo: catalog.generatedSeo(
      siteTocPath,
      text.siteToc,
      text.siteTocDescription,
      catalog.breadcrumbs(locale, { name: text.siteToc, path: localePath(locale, siteTocPath) }),
    ),
  };
}
