import type { AccountSettingsData } from './account-view.ts';
import type { ArticleData, ArticleListData, ContentPageData, HomeData } from './content.ts';
import type { AccountPageData, PlayPageData } from './play.ts';
import type { SeoData } from './seo.ts';

/** What each data source answers, by the manifest's key: the server and the pages are typed against it. */
export interface PageDataMap {
  home: HomeData;
  articleList: ArticleListData;
  article: ArticleData;
  contentPage: ContentPageData;
  account: AccountPageData & AccountSettingsData & { seo: SeoData };
  /** `/play?session=<id>` shows one of them. */
  play: PlayPageData & { seo: SeoData };
}

export type DataSourceKey = keyof PageDataMap;
