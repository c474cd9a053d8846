import fp from 'fastify-plugin';
import type { DataSourceKey, PageDataMap } from '../contract/data-sources.ts';
import type { PageDataSource } from '../contract/page-data.ts';

/**
 * The data sources of contract/data-sources.ts: the SSR render and `_payload.json` both read them,
 * so a page's HTML and its payload come from the same function.
 */
class PageDataRegistry {
  readonly #sources = new Map<DataSourceKey, PageDataSource>();

  define<K extends DataSourceKey>(name: K, source: PageDataSource<PageDataMap[K]>): void {
    if (this.#sources.has(name)) throw new Error(`Page data source '${name}' is defined twice.`);
    this.#sources.set(name, source);
  }

  get<K extends DataSourceKey>(name: K): PageDataSource<PageDataMap[K]> {
    const source = this.#sources.get(name);
    if (!source) throw new Error(`No page data source named '${name}'.`);
    return source as PageDataSource<PageDataMap[K]>;
  }

  has(name: DataSourceKey): boolean {
    return this.#sources.has(name);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    pageData: PageDataRegistry;
  }
}

export default fp(
  async (app) => {
    app.decorate('pageData', new PageDataRegistry());
  },
  { name: 'page-data' },
);
