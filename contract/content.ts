/** What content pages' data sources return; paths are locale-aware, except `seo.path`. */
import type { SeoData } from './seo.ts';

export type { SeoData } from './seo.ts';

/** Files an article under responsible play: read by someone who may be struggling, it never prompts play. */
export const responsiblePlayTag = 'responsible-play';

export const offersPlay = (tags: readonly string[]): boolean => !tags.includes(responsiblePlayTag);

export interface TocEntry {
  id: string;
  text: string;
  level: 2 | 3;
}

export interface AuthorRef {
  slug: string;
  name: string;
  path: string;
}

export interface AuthorByline extends AuthorRef {
  role: string;
}

export interface ArticleSummary {
  slug: string;
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
  /** Drafts are shown only outside production. */
  draft?: true;
}

export interface ArticleDetail extends Omit<ArticleSummary, 'author'> {
  /** Sanitized HTML; headings carry the ids `toc` points at. */
  html: string;
  toc: TocEntry[];
  author: AuthorByline;
}

export interface ArticleLink {
  slug: string;
  title: string;
  path: string;
}

export interface PageContent {
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

export interface HomeData {
  intro: PageContent;
  latestArticles: ArticleSummary[];
  seo: SeoData;
}

/** Every article, newest first; the page slices `?page=N` itself. */
export interface ArticleListData {
  articles: ArticleSummary[];
  pageSize: number;
  seo: SeoData;
}

/** `previous` is the next older article, `next` the next newer one. */
export interface ArticleData {
  article: ArticleDetail;
  previous?: ArticleLink;
  next?: ArticleLink;
  seo: SeoData;
}

export interface AuthorSummary extends AuthorByline {
  avatar: string;
  articleCount: number;
  fallback: boolean;
}

export interface AuthorProfile extends AuthorByline {
  avatar: string;
  bioHtml: string;
  fallback: boolean;
}

export interface SiteLink {
  title: string;
  path: string;
  description?: string;
  fallback: boolean;
}

export interface SiteTocGroup {
  id: 'sections' | 'articles' | 'authors';
  title: string;
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
  articles: ArticleSummary[];
  seo: SeoData;
}

export interface SiteTocPageData {
  kind: 'toc';
  groups: SiteTocGroup[];
  seo: SeoData;
}

export type ContentPageData = SectionPageData | AuthorsPageData | AuthorPageData | SiteTocPageData;
