import fp from 'fastify-plugin';
import type { PageDataSource } from '../lib/page-data.ts';

/**
 * The named server-side data sources the shared route table points at (`data: 'article'`).
 * Feature plugins (content, accounts ...) define them; the SSR render and `_payload.json`
 * both read them, so a page's HTML and its payload always come from the same function.
 */
export class PageDataRegistry {
  readonly #sources = new Map<string, PageDataSource>();

  define(name: string, source: PageDataSource): void {
    if (this.#sources.has(name)) throw new Error(`Page data source '${name}' is defined twice.`);
    this.#sources.set(name, source);
  }

  /**
   * Adds to a defined source what another feature shows on the same page (the account page shows
   * play sessions and breaks from Play, and the account's details and sessions from accounts):
   * both run together and their objects are merged, the extension's keys last.
   */
  extend(name: string, extension: PageDataSource): void {
    const base = this.get(name);
    this.#sources.set(name, async (args) => {
      const [data, extra] = await Promise.all([base(args), extension(args)]);
      return { ...(data as object), ...(extra as object) };
    });
  }

  get(name: string): PageDataSource {
    const source = this.#sources.get(name);
    if (!source) throw new Error(`No page data source named '${name}'.`);
    return source;
  }

  has(name: string): boolean {
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
