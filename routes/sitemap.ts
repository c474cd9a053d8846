import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchesIfNoneMatch } from '../lib/etag.ts';

const cacheControl = 'public, max-age=3600';

function send(request: FastifyRequest, reply: FastifyReply, type: string, body: string, etag: string) {
  reply.header('cache-control', cacheControl).header('etag', etag).type(type);
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(body);
}

/** `/sitemap.xml` and `/robots.txt`, built from the loaded content (`app.content`, plugins/app/content.ts). */
export default async function sitemapRoutes(app: FastifyInstance): Promise<void> {
  app.get('/sitemap.xml', async (request, reply) =>
    send(
      request,
      reply,
      'application/xml; charset=utf-8',
      app.content.sitemapXml(),
      `"sitemap-${app.content.version}"`,
    ),
  );
  app.get('/robots.txt', async (request, reply) =>
    send(request, reply, 'text/plain; charset=utf-8', app.content.robotsTxt(), `"robots-${app.content.version}"`),
  );
}
