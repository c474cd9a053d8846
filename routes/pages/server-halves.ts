import { pageName, type PageRoute } from '../../contract/routes.ts';
import type { PageServerModule } from '../../lib/pages/page-server.ts';

/** A page's `client/pages/<name>.server.ts`, checked to hold what its route declares. */
async function serverHalfOf(route: PageRoute): Promise<[PageRoute, PageServerModule]> {
  const name = pageName(route.module);
  const half = (await import(`../../client/pages/${name}.server.ts`)) as PageServerModule;
  if (Boolean(route.data) !== Boolean(half.loader) || Boolean(route.action) !== Boolean(half.action))
    throw new Error(`client/pages/${name}.server.ts: its loader and action do not match the route table`);
  return [route, half];
}

/** The server half of every page with data or a form, loaded once at registration. */
export async function loadServerHalves(routes: readonly PageRoute[]): Promise<Map<PageRoute, PageServerModule>> {
  return new Map(await Promise.all(routes.filter((route) => route.data || route.action).map(serverHalfOf)));
}
