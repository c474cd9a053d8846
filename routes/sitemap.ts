import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const cacheControl = 'public, max-age=3600';

function send(request: FastifyRequest, reply: FastifyReply, type: string, body: string, etag: string) {
  reply.header('cache-control', cacheControl).header('etag', etag).type(type);
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((value) => value.trim().replace(/^W\//, '') === etag)) {
    return reply.code(304).send();
  }
  return reply.send(body);
}

/** `/sitemap.xml` and `/robots.txt`, built from the loaded content (see plugins/content.ts). */
export default async function sitemapRoutes(app: FastifyInstance): Promise<void> {
  app.get('/sitemap.xml', async (request, reply) =>
    send(request, reply, 'application/xml; charset=utf-8', app.content.sitemapXml(), `"sitemap-${app.content.version}"`),
  );
  app.get('/robots.txt', async (request, reply) =>
    send(request, reply, 'text/plain; charset=utf-8', app.content.robotsTxt(), `"robots-${app.content.version}"`),
  );
}
