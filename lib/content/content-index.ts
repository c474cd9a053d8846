import { localePath, locales, type Locale } from '../../contract/locales.ts';
import { type PageDataArgs, PageNotFoundError } from '../../contract/page-data.ts';
import { articlesPath, ContentCatalog, deepFreeze } from './catalog.ts';
import { ContentError, type ContentIssue, type ContentSnapshot } from './snapshot.ts';
import { buildLocalePages, type LocalePages } from './page-views.ts';
import { buildSitemapEntries, type SitemapEntry } from './sitemap-entries.ts';
import type { ArticleData, ArticleListData, ContentPageData, HomeData } from '../../contract/content.ts';

export interface ContentIndexOptions {
  showDrafts: boolean;
}

/** Every answer the content pages can get, computed once: a request is a map lookup. Deep-frozen. */
export class ContentIndex {
  readonly version: string;
  readonly issues: readonly ContentIssue[];
  readonly sitemap: readonly SitemapEntry[];

  readonly #issuesByPath = new Map<string, ContentIssue[]>();
  readonly #pages: Record<Locale, LocalePages>;

  constructor(snapshot: ContentSnapshot, options: ContentIndexOptions) {
    this.version = snapshot.version;
    this.issues = snapshot.issues;
    for (const issue of snapshot.issues) {
      if (!issue.pagePath) continue;
      const list = this.#issuesByPath.get(issue.pagePath) ?? [];
      list.push(issue);
      this.#issuesByPath.set(issue.pagePath, list);
    }
    const catalog = new ContentCatalog(snapshot, options.showDrafts);
    this.#pages = Object.fromEntries(locales.map((locale) => [locale, buildLocalePages(catalog, locale)])) as Record<
      Locale,
      LocalePages
    >;
    this.sitemap = deepFreeze(buildSitemapEntries(catalog));
  }

  getArticle(locale: Locale, slug: string): ArticleData | undefined {
    return this.#pages[locale].articles.get(slug);
  }

  getHome(locale: Locale): HomeData | undefined {
    return this.#pages[locale].home;
  }

  getArticleList(locale: Locale): ArticleListData | undefined {
    return this.#pages[locale].articleList;
  }

  /** The catch-all's data for `rest` (the path after the locale, without slashes at either end). */
  getContentPage(locale: Locale, rest: string): ContentPageData | undefined {
    return this.#pages[locale].contentPages.get(rest);
  }

  /** Development's kept problems with the file that would serve this page (its data source throws them). */
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

  // The pages' loaders (client/pages/*.server.ts).

  home = ({ locale }: PageDataArgs): HomeData => this.answer(locale, '/', () => this.getHome(locale));

  articleList = ({ locale }: PageDataArgs): ArticleListData =>
    this.answer(locale, articlesPath, () => this.getArticleList(locale));

  article = ({ locale, params, path }: PageDataArgs): ArticleData => {
    const slug = params.slug ?? '';
    return this.answer(
      locale,
      `${articlesPath}/${slug}`,
      () => (slug ? this.getArticle(locale, slug) : undefined),
      path,
    );
  };

  contentPage = ({ locale, params, path }: PageDataArgs): ContentPageData => {
    const rest = (params['*'] ?? '').replace(/\/$/, '');
    // The router decodes %2F: /bonus%2F is another address (else each spelling is a cache entry).
    const found = rest !== '' && !/%2F/i.test(path) && !/^\/|\/\//.test(rest);
    return this.answer(locale, `/${rest}`, () => (found ? this.getContentPage(locale, rest) : undefined), path);
  };
}
