import type { PageLoader } from '../../lib/pages/page-server.ts';

export const loader: PageLoader<'article'> = (app, args) => app.content.index.article(args);
