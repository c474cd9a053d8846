import type { PageLoader } from '../../lib/pages/page-server.ts';

export const loader: PageLoader<'home'> = (app, args) => app.content.index.home(args);
