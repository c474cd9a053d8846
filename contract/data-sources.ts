import type { AccountSettingsData } from './account-view.ts';
import type { ArticleData, ArticleListData, ContentPageData, HomeData } from './content.ts';
import type { AccountPageData, PlayPageData } from './play.ts';
import type { SeoData } from './seo.ts';

/**
 * What each server data source answers, by the key the route manifest names (`data: 'article'`):
 * the server's sources are defined against it (plugins/page-data.ts), and a page reads its
 * loader data through it (`usePageData('article')`). Renaming a key or changing a shape fails
 * the type check on both sides.
 */
export interface PageDataMap {
  home: HomeData;
  articleList: ArticleListData;
  article: ArticleData;
  contentPage: ContentPageData;
  /** Play's sessions and break, and the account's details and login sessions; never indexed. */
  account: AccountPageData & AccountSettingsData & { seo: SeoData };
  /** The player's latest play sessions (`/play?session=<id>` shows one); never indexed. */
  play: PlayPageData & { seo: SeoData };
}

export type DataSourceKey = keyof PageDataMap;
