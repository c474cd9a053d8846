import type { PageLoader } from '../../lib/pages/page-server.ts';

export const loader = ((app, args) => app.content.index.article(args)) satisfies PageLoader;
