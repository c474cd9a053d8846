import type { PageLoader } from '../../lib/pages/page-server.ts';

export const loader: PageLoader<'articleList'> = (app, args) => app.content.index.articleList(args);
