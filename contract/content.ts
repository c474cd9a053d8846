/**
 * The data the content pages receive: what the `home`, `articleList`, `article` and `contentPage`
 * data sources return (server render and `_payload.json` alike). Plain JSON, safe to import from
 * the client (types only, no Node modules).
 *
 * Paths in this data are locale-aware (`/th/asdas/x` in Thai data), except `seo.path`, which is the
 * path without its locale prefix (see contract/seo.ts).
 */
import type { Locale } from './locales.ts';
import type { SeoData } from './seo.ts';

export type { SeoData } from './seo.ts';

/** A heading of the table of contents: the `id` is the heading's id in `html`. */
export interface TocEntry {
  id: string;
  text: string;
  level: 2 | 3;
}

/** An author as a byline shows it. `path` is the author's page (`/author/x`, `/th/author/x`). */
export interface AuthorRef {
  slug: string;
  name: string;
  path: string;
}

export interface AuthorByline extends AuthorRef {
  role: string;
}

/** One item of an article list. Dates are `YYYY-MM-DD`. */
export interface ArticleSummary {
  slug: string;
  /** Locale-aware: `/asdas/x` or `/th/asdas/x`. */
  path: string;
  title: string;
  description: string;
  author: AuthorRef;
  published: string;
  updated?: string;
  readingMinutes: number;
  tags: string[];
  /** True when this locale has no translation and the English text is shown instead. */
  fallback: boolean;
  /** Present (true) only outside production, where drafts are shown. */
  draft?: true;
}

export interface ArticleDetail extends Omit<ArticleSummary, 'author'> {
  /** Sanitized HTML, rendered once at load. Headings carry the ids `toc` points at. */
  html: string;
  toc: TocEntry[];
  author: AuthorByline;
}

/** The article before/after this one in the list (newest first). */
export interface ArticleLink {
  slug: string;
  title: string;
  path: string;
}

/** A Markdown page that is not an article: the home introduction or a section (bonus, terms ...). */
export interface PageContent {
  /** Locale-aware path of the page. */
  path: string;
  title: string;
  description: string;
  html: string;
  toc: TocEntry[];
  published: string;
  updated?: string;
  readingMinutes: number;
  author: AuthorByline;
  fallback: boolean;
  draft?: true;
}

/** `home` data source. */
export interface HomeData {
  intro: PageContent;
  /** The 5 newest articles. */
  latestArticles: ArticleSummary[];
  seo: SeoData;
}

/** `articleList` data source: every article, newest first; the page slices `?page=N` itself. */
export interface ArticleListData {
  articles: ArticleSummary[];
  pageSize: number;
  seo: SeoData;
}

/** `article` data source. `previous` is the next older article, `next` the next newer one. */
export interface ArticleData {
  article: ArticleDetail;
  previous?: ArticleLink;
  next?: ArticleLink;
  seo: SeoData;
}

export interface AuthorSummary extends AuthorByline {
  /** Initials shown in the avatar circle. */
  avatar: string;
  articleCount: number;
  fallback: boolean;
}

export interface AuthorProfile extends AuthorByline {
  avatar: string;
  /** Sanitized HTML of the bio. */
  bioHtml: string;
  fallback: boolean;
}

/** An entry of the site's table of contents. */
export interface SiteLink {
  title: string;
  path: string;
  description?: string;
  fallback: boolean;
}

export interface SiteTocGroup {
  id: 'sections' | 'articles' | 'authors';
  /** Localised group heading. */
  title: string;
  /** The group's own index page, when it has one (`/asdas`, `/author`). */
  path?: string;
  items: SiteLink[];
}

export interface SectionPageData {
  kind: 'section';
  page: PageContent;
  seo: SeoData;
}

export interface AuthorsPageData {
  kind: 'authors';
  authors: AuthorSummary[];
  seo: SeoData;
}

export interface AuthorPageData {
  kind: 'author';
  author: AuthorProfile;
  /** Their articles, newest first. */
  articles: ArticleSummary[];
  seo: SeoData;
}

export interface SiteTocPageData {
  kind: 'toc';
  /** In this order: sections (home and every section page), articles, authors. */
  groups: SiteTocGroup[];
  seo: SeoData;
}

/** `contentPage` data source (the catch-all `/*`). */
export type ContentPageData = SectionPageData | AuthorsPageData | AuthorPageData | SiteTocPageData;
