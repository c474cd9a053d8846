import type { FastifyInstance } from 'fastify';
import { notFoundError } from '../../contract/http-error.ts';

/** Unknown API addresses answer a JSON 404 and never fall through to the page renderer. */
export default async function apiNotFoundRoutes(app: FastifyInstance) {
  app.all('/api/*', { config: { auth: false } }, async (request) => {
    throw notFoundError(request.url.split('?')[0] ?? request.url);
  });
}
