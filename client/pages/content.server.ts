import type { PageLoader } from '../../lib/pages/page-server.ts';

export const loader: PageLoader<'contentPage'> = (app, args) => app.content.index.contentPage(args);
