import { localePath, locales, type Locale } from '../locales.ts';
import { type PageDataArgs, PageNotFoundError } from '../page-data.ts';
import type { SeoData, SeoLink } from '../seo.ts';
import { labels } from './labels.ts';
import { articlesFolder, type AuthorEntry, ContentError, type ContentIssue, type ContentSnapshot, type PageEntry } from './loader.ts';
import type {
  ArticleData,
  ArticleLink,
  ArticleListData,
  ArticleSummary,
  AuthorByline,
  AuthorPageData,
  AuthorProfile,
  AuthorsPageData,
  AuthorSummary,
  ContentPageData,
  HomeData,
  PageContent,
  SectionPageData,
  SiteLink,
  SiteTocPageData,
} from './types.ts';

export const articlePageSize = 10;
export const latestArticleCount = 6;
export const siteTocPath = '/table-of-content';
export const authorsPath = '/author';
export const articlesPath = `/${articlesFolder}`;

export interface ContentIndexOptions {
  /** Serve and list drafts (never in production). */
  showDrafts: boolean;
}

/** One public address of the sitemap with the locales it exists in and their last change. */
export interface SitemapEntry {
  /** Without locale prefix. */
  path: string;
  /** Locales this page really exists in, each with its `YYYY-MM-DD` last modification if known. */
  locales: Partial<Record<Locale, { lastmod?: string }>>;
}

interface Resolved<T> {
  entry: T;
  fallback: boolean;
}

type ByLocale<T> = Partial<Record<Locale, T>>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function newest(dates: (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const date of dates) if (date && (!best || date > best)) best = date;
  return best;
}

const lastmodOf = (entry: PageEntry) => entry.meta.updated ?? entry.meta.published;

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/**
 * Every answer the content pages can get, computed once from a loaded snapshot: a request is a
 * map lookup. Data is deep-frozen (shared between requests; nobody may change it).
 */
export class ContentIndex {
  readonly version: string;
  readonly issues: readonly ContentIssue[];
  readonly sitemap: readonly SitemapEntry[];

  readonly #showDrafts: boolean;
  readonly #pages = new Map<string, ByLocale<PageEntry>>();
  readonly #authors = new Map<string, ByLocale<AuthorEntry>>();
  readonly #issuesByPath = new Map<string, ContentIssue[]>();
  readonly #home = new Map<Locale, HomeData>();
  readonly #articleLists = new Map<Locale, ArticleListData>();
  readonly #articles = new Map<string, ArticleData>();
  readonly #contentPages = new Map<string, ContentPageData>();

  constructor(snapshot: ContentSnapshot, options: ContentIndexOptions) {
    this.#showDrafts = options.showDrafts;
    this.version = snapshot.version;
    this.issues = snapshot.issues;
    for (const issue of snapshot.issues) {
      if (!issue.pagePath) continue;
      const list = this.#issuesByPath.get(issue.pagePath) ?? [];
      list.push(issue);
      this.#issuesByPath.set(issue.pagePath, list);
    }
    for (const page of snapshot.pages) {
      if (page.meta.draft && !this.#showDrafts) continue;
      const byLocale = this.#pages.get(page.path) ?? {};
      byLocale[page.locale] = page;
      this.#pages.set(page.path, byLocale);
    }
    // Every author named by a file exists, even one whose file has a problem (reported on its own).
    for (const page of snapshot.pages) if (!this.#authors.has(page.meta.author)) this.#authors.set(page.meta.author, {});
    for (const author of snapshot.authors) {
      const byLocale = this.#authors.get(author.slug) ?? {};
      byLocale[author.locale] = author;
      this.#authors.set(author.slug, byLocale);
    }
    for (const locale of locales) this.#build(locale);
    this.sitemap = deepFreeze(this.#buildSitemap());
  }

  // ---- lookups ---------------------------------------------------------------------------

  /** This locale's text of a page, or the English one marked as a fallback. */
  #resolve(locale: Locale, path: string): Resolved<PageEntry> | undefined {
    const byLocale = this.#pages.get(path);
    const own = byLocale?.[locale];
    if (own) return { entry: own, fallback: false };
    const english = locale === 'en' ? undefined : byLocale?.en;
    return english ? { entry: english, fallback: true } : undefined;
  }

  #alternates(path: string): Locale[] {
    const byLocale = this.#pages.get(path) ?? {};
    return locales.filter((locale) => byLocale[locale]);
  }

  #author(slug: string, locale: Locale): Resolved<AuthorEntry> | undefined {
    const byLocale = this.#authors.get(slug);
    const own = byLocale?.[locale];
    if (own) return { entry: own, fallback: false };
    const other = byLocale?.en ?? byLocale?.th;
    return other ? { entry: other, fallback: true } : undefined;
  }

  #byline(slug: string, locale: Locale): AuthorByline {
    const author = this.#author(slug, locale)?.entry;
    return {
      slug,
      name: author?.meta.name ?? slug,
      role: author?.meta.role ?? '',
      path: localePath(locale, `${authorsPath}/${slug}`),
    };
  }

  #articleSlugs(): string[] {
    const prefix = `${articlesPath}/`;
    return [...this.#pages.keys()].filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
  }

  #sectionPaths(): string[] {
    return [...this.#pages.entries()]
      .filter(([, byLocale]) => (byLocale.en ?? byLocale.th)?.kind === 'section')
      .map(([path]) => path);
  }

  #breadcrumbs(locale: Locale, ...rest: SeoLink[]): SeoLink[] {
    return [{ name: labels[locale].home, path: localePath(locale, '/') }, ...rest];
  }

  // ---- building -------------------------------------------------------------------------

  #summary(locale: Locale, resolved: Resolved<PageEntry>): ArticleSummary {
    const { entry, fallback } = resolved;
    const { meta } = entry;
    const byline = this.#byline(meta.author, locale);
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

  #pageContent(locale: Locale, resolved: Resolved<PageEntry>): PageContent {
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
      author: this.#byline(meta.author, locale),
      fallback,
      ...(meta.draft ? { draft: true as const } : {}),
    };
  }

  #pageSeo(locale: Locale, entry: PageEntry, type: SeoData['type'], breadcrumbs: SeoLink[]): SeoData {
    const { meta } = entry;
    const byline = this.#byline(meta.author, locale);
    return {
      title: meta.title,
      description: meta.description,
      path: entry.path,
      alternates: this.#alternates(entry.path),
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

  #generatedSeo(locale: Locale, path: string, title: string, description: string, breadcrumbs: SeoLink[]): SeoData {
    return { title, description, path, alternates: [...locales], type: 'website', breadcrumbs };
  }

  #build(locale: Locale): void {
    const text = labels[locale];
    const key = (path: string) => `${locale}:${path}`;

    // Articles, newest first (then by slug, so equal dates keep a stable order).
    const articles = this.#articleSlugs()
      .map((slug) => this.#resolve(locale, `${articlesPath}/${slug}`))
      .filter((resolved): resolved is Resolved<PageEntry> => Boolean(resolved))
      .sort((a, b) => {
        const byDate = b.entry.meta.published.localeCompare(a.entry.meta.published);
        return byDate || a.entry.slug!.localeCompare(b.entry.slug!);
      });
    const summaries = articles.map((resolved) => this.#summary(locale, resolved));
    const articlesCrumb: SeoLink = { name: text.articles, path: localePath(locale, articlesPath) };

    this.#articleLists.set(
      locale,
      deepFreeze({
        articles: summaries,
        pageSize: articlePageSize,
        seo: this.#generatedSeo(locale, articlesPath, text.articles, text.articlesDescription, this.#breadcrumbs(locale, articlesCrumb)),
      }),
    );

    const link = (summary: ArticleSummary | undefined): ArticleLink | undefined =>
      summary && { slug: summary.slug, title: summary.title, path: summary.path };
    articles.forEach((resolved, index) => {
      const summary = summaries[index]!;
      const { entry } = resolved;
      const next = link(summaries[index - 1]);
      const previous = link(summaries[index + 1]);
      const data: ArticleData = {
        article: { ...summary, html: entry.html, toc: entry.toc, author: this.#byline(entry.meta.author, locale) },
        ...(previous ? { previous } : {}),
        ...(next ? { next } : {}),
        seo: this.#pageSeo(
          locale,
          entry,
          'article',
          this.#breadcrumbs(locale, articlesCrumb, { name: entry.meta.title, path: summary.path }),
        ),
      };
      this.#articles.set(key(summary.slug), deepFreeze(data));
    });

    // Home.
    const intro = this.#resolve(locale, '/');
    if (intro) {
      this.#home.set(
        locale,
        deepFreeze({
          intro: this.#pageContent(locale, intro),
          latestArticles: summaries.slice(0, latestArticleCount),
          seo: this.#pageSeo(locale, intro.entry, 'website', this.#breadcrumbs(locale)),
        }),
      );
    }

    // Sections (any other Markdown page), ordered by `order`, then title.
    const sections = this.#sectionPaths()
      .map((path) => this.#resolve(locale, path))
      .filter((resolved): resolved is Resolved<PageEntry> => Boolean(resolved))
      .sort((a, b) => {
        const byOrder = (a.entry.meta.order ?? Number.MAX_SAFE_INTEGER) - (b.entry.meta.order ?? Number.MAX_SAFE_INTEGER);
        return byOrder || a.entry.meta.title.localeCompare(b.entry.meta.title, locale);
      });
    for (const resolved of sections) {
      const { entry } = resolved;
      const crumbs: SeoLink[] = [];
      // Nested sections (`/guides/x`) show their parents when those are pages too.
      const segments = entry.path.split('/').slice(1);
      for (let depth = 1; depth < segments.length; depth += 1) {
        const parentPath = `/${segments.slice(0, depth).join('/')}`;
        const parent = this.#resolve(locale, parentPath);
        if (parent) crumbs.push({ name: parent.entry.meta.title, path: localePath(locale, parentPath) });
      }
      crumbs.push({ name: entry.meta.title, path: localePath(locale, entry.path) });
      const data: SectionPageData = {
        kind: 'section',
        page: this.#pageContent(locale, resolved),
        seo: this.#pageSeo(locale, entry, 'website', this.#breadcrumbs(locale, ...crumbs)),
      };
      this.#contentPages.set(key(entry.path.slice(1)), deepFreeze(data));
    }

    // Authors.
    const authorsCrumb: SeoLink = { name: text.authors, path: localePath(locale, authorsPath) };
    const authorSlugs = [...this.#authors.keys()];
    const profiles: AuthorSummary[] = authorSlugs
      .map((slug) => {
        const resolved = this.#author(slug, locale);
        const byline = this.#byline(slug, locale);
        return {
          ...byline,
          avatar: resolved?.entry.meta.avatar ?? slug.slice(0, 2).toUpperCase(),
          articleCount: summaries.filter((summary) => summary.author.slug === slug).length,
          fallback: resolved?.fallback ?? true,
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name, locale));
    const authorsData: AuthorsPageData = {
      kind: 'authors',
      authors: profiles,
      seo: this.#generatedSeo(locale, authorsPath, text.authors, text.authorsDescription, this.#breadcrumbs(locale, authorsCrumb)),
    };
    this.#contentPages.set(key(authorsPath.slice(1)), deepFreeze(authorsData));
    for (const slug of authorSlugs) {
      const resolved = this.#author(slug, locale);
      const byline = this.#byline(slug, locale);
      const profile: AuthorProfile = {
        ...byline,
        avatar: resolved?.entry.meta.avatar ?? slug.slice(0, 2).toUpperCase(),
        bioHtml: resolved?.entry.bioHtml ?? '',
        fallback: resolved?.fallback ?? true,
      };
      const path = `${authorsPath}/${slug}`;
      const bio = resolved?.entry.bioText;
      const data: AuthorPageData = {
        kind: 'author',
        author: profile,
        articles: summaries.filter((summary) => summary.author.slug === slug),
        seo: {
          title: byline.name,
          description: bio ? truncate(bio, 200) : text.authorDescription(byline.name, byline.role),
          path,
          alternates: locales.filter((code) => this.#authors.get(slug)?.[code]),
          type: 'website',
          breadcrumbs: this.#breadcrumbs(locale, authorsCrumb, { name: byline.name, path: byline.path }),
        },
      };
      this.#contentPages.set(key(path.slice(1)), deepFreeze(data));
    }

    // The site's table of contents.
    const siteLink = (title: string, path: string, description: string | undefined, fallback: boolean): SiteLink => ({
      title,
      path: localePath(locale, path),
      ...(description ? { description } : {}),
      fallback,
    });
    const sectionLinks: SiteLink[] = [];
    if (intro) sectionLinks.push(siteLink(text.home, '/', intro.entry.meta.description, intro.fallback));
    for (const { entry, fallback } of sections) {
      sectionLinks.push(siteLink(entry.meta.title, entry.path, entry.meta.description, fallback));
    }
    const toc: SiteTocPageData = {
      kind: 'toc',
      groups: [
        { id: 'sections', title: text.sections, items: sectionLinks },
        {
          id: 'articles',
          title: text.articles,
          path: localePath(locale, articlesPath),
          items: summaries.map((summary) => ({
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
          items: profiles.map((author) => ({ title: author.name, path: author.path, description: author.role, fallback: author.fallback })),
        },
      ],
      seo: this.#generatedSeo(
        locale,
        siteTocPath,
        text.siteToc,
        text.siteTocDescription,
        this.#breadcrumbs(locale, { name: text.siteToc, path: localePath(locale, siteTocPath) }),
      ),
    };
    this.#contentPages.set(key(siteTocPath.slice(1)), deepFreeze(toc));
  }

  #buildSitemap(): SitemapEntry[] {
    const entries: SitemapEntry[] = [];
    const published = (entry: PageEntry) => !entry.meta.draft;
    const pageEntry = (path: string): SitemapEntry | undefined => {
      const byLocale = this.#pages.get(path) ?? {};
      const found: SitemapEntry['locales'] = {};
      for (const locale of locales) {
        const entry = byLocale[locale];
        if (entry && published(entry)) found[locale] = { lastmod: lastmodOf(entry) };
      }
      return Object.keys(found).length ? { path, locales: found } : undefined;
    };
    // Lists change when what they list does: the newest date among the articles each locale shows.
    const articleDates = (locale: Locale, author?: string) =>
      this.#articleSlugs()
        .map((slug) => this.#resolve(locale, `${articlesPath}/${slug}`)?.entry)
        .filter((entry): entry is PageEntry => Boolean(entry && published(entry) && (!author || entry.meta.author === author)))
        .map(lastmodOf);
    const generated = (path: string, lastmod: (locale: Locale) => string | undefined): SitemapEntry => ({
      path,
      locales: Object.fromEntries(
        locales.map((locale) => {
          const date = lastmod(locale);
          return [locale, date ? { lastmod: date } : {}];
        }),
      ),
    });

    const home = pageEntry('/');
    if (home) entries.push(home);
    entries.push(generated(articlesPath, (locale) => newest(articleDates(locale))));
    const articleSlugs = this.#articleSlugs().sort();
    for (const slug of articleSlugs) {
      const entry = pageEntry(`${articlesPath}/${slug}`);
      if (entry) entries.push(entry);
    }
    for (const path of this.#sectionPaths().sort()) {
      const entry = pageEntry(path);
      if (entry) entries.push(entry);
    }
    entries.push(generated(authorsPath, (locale) => newest(articleDates(locale))));
    for (const slug of [...this.#authors.keys()].sort()) {
      const byLocale = this.#authors.get(slug) ?? {};
      const found: SitemapEntry['locales'] = {};
      for (const locale of locales) {
        if (!byLocale[locale]) continue;
        const date = newest(articleDates(locale, slug));
        found[locale] = date ? { lastmod: date } : {};
      }
      if (Object.keys(found).length) entries.push({ path: `${authorsPath}/${slug}`, locales: found });
    }
    entries.push(
      generated(siteTocPath, (locale) =>
        newest([
          ...articleDates(locale),
          ...[...this.#pages.values()].map((byLocale) => byLocale[locale]).filter((e): e is PageEntry => Boolean(e && published(e))).map(lastmodOf),
        ]),
      ),
    );
    return entries;
  }

  // ---- the query API -------------------------------------------------------------------

  /** Every article this locale shows (its own and English fallbacks), newest first. */
  listArticles(locale: Locale): readonly ArticleSummary[] {
    return this.#articleLists.get(locale)?.articles ?? [];
  }

  listAuthors(locale: Locale): readonly AuthorSummary[] {
    const data = this.#contentPages.get(`${locale}:${authorsPath.slice(1)}`) as AuthorsPageData | undefined;
    return data?.authors ?? [];
  }

  getArticle(locale: Locale, slug: string): ArticleData | undefined {
    return this.#articles.get(`${locale}:${slug}`);
  }

  getHome(locale: Locale): HomeData | undefined {
    return this.#home.get(locale);
  }

  getArticleList(locale: Locale): ArticleListData | undefined {
    return this.#articleLists.get(locale);
  }

  /** The catch-all's data for `rest` (the path after the locale, without slashes at either end). */
  getContentPage(locale: Locale, rest: string): ContentPageData | undefined {
    return this.#contentPages.get(`${locale}:${rest}`);
  }

  /**
   * Problems (kept in development instead of stopping the start) with the file that would serve
   * this page. The page's data source throws them so the page shows the message.
   */
  issuesAt(locale: Locale, path: string): ContentIssue[] {
    return this.#issuesByPath.get(localePath(locale, path)) ?? [];
  }

  /** Runs `lookup`, surfacing content problems of this path before answering "not found". */
  answer<T>(locale: Locale, path: string, lookup: () => T | undefined, requestPath: string = path): T {
    const own = this.issuesAt(locale, path);
    if (own.length) throw new ContentError(own);
    const found = lookup();
    if (found !== undefined) return found;
    if (locale !== 'en') {
      const english = this.issuesAt('en', path);
      if (english.length) throw new ContentError(english);
    }
    throw new PageNotFoundError(localePath(locale, requestPath || path));
  }

  // ---- page data sources (see plugins/page-data.ts) ---------------------------------------

  home = ({ locale }: PageDataArgs): HomeData => this.answer(locale, '/', () => this.getHome(locale));

  articleList = ({ locale }: PageDataArgs): ArticleListData => this.answer(locale, articlesPath, () => this.getArticleList(locale));

  article = ({ locale, params, path }: PageDataArgs): ArticleData => {
    const slug = params.slug ?? '';
    return this.answer(locale, `${articlesPath}/${slug}`, () => (slug ? this.getArticle(locale, slug) : undefined), path);
  };

  contentPage = ({ locale, params, path }: PageDataArgs): ContentPageData => {
    const rest = (params['*'] ?? '').replace(/^\/+|\/+$/g, '');
    return this.answer(locale, `/${rest}`, () => (rest ? this.getContentPage(locale, rest) : undefined), path);
  };
}
