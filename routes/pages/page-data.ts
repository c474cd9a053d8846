import type { FastifyInstance } from 'fastify';
import type { DataSourceKey, PageDataMap } from '../../contract/data-sources.ts';
import type { PageDataArgs } from '../../contract/page-data.ts';

type DataLoader<K extends DataSourceKey> = (
  app: FastifyInstance,
  args: PageDataArgs,
) => PageDataMap[K] | Promise<PageDataMap[K]>;

/**
 * Each page's data by the route table's `data` name (contract/routes.ts): a page's HTML and its
 * `_payload.json` come from the same function. A name missing here fails the type-check.
 */
export const pageData: { [K in DataSourceKey]: DataLoader<K> } = {
  home: (app, args) => app.content.index.home(args),
  articleList: (app, args) => app.content.index.articleList(args),
  article: (app, args) => app.content.index.article(args),
  contentPage: (app, args) => app.content.index.contentPage(args),
  account: (app, args) => app.accountSettings.accountPage(args),
  play: (app, args) => app.play.playPage(args),
};
