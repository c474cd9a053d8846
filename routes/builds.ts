import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectRoot } from '../lib/build-info.ts';
import { errorResponseSchema, notFoundError } from '../contract/http-error.ts';

export interface BuildsRoutesOptions {
  /** Where `npm run build` writes latest.json and meta/ (default `<project>/builds`). */
  dir?: string;
}

const LATEST_CACHE_CONTROL = 'no-cache';
export const META_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A build id as scripts/build.mjs accepts it (a UUID by default, or `BUILD_ID`), and `.json`. */
const META_FILE_PATTERN = /^([A-Za-z0-9][A-Za-z0-9._-]{0,127})\.json$/;

const notFound = (path: string) => notFoundError(path, { 'cache-control': 'no-cache' });

/**
 * `/builds/latest.json` is read from disk on every request, so a running server announces a deploy
 * (decision 0005); anything else under /builds/ is a JSON 404, never a page.
 */
export default async function buildsRoutes(app: FastifyInstance, options: BuildsRoutesOptions = {}) {
  const dir = options.dir ?? resolve(projectRoot, 'builds');
  const schema = { response: { 404: errorResponseSchema } };

  async function sendJsonFile(reply: FastifyReply, file: string, path: string, cacheControl: string) {
    let body: string;
    try {
      body = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(path);
      throw error;
    }
    return reply.header('cache-control', cacheControl).type('application/json; charset=utf-8').send(body);
  }

  app.get('/builds/latest.json', { schema, logLevel: 'warn' }, async (_request, reply) =>
    sendJsonFile(reply, resolve(dir, 'latest.json'), '/builds/latest.json', LATEST_CACHE_CONTROL),
  );

  app.get<{ Params: { file: string } }>('/builds/meta/:file', { schema }, async (request, reply) => {
    const { file } = request.params;
    const path = `/builds/meta/${file}`;
    if (!META_FILE_PATTERN.test(file)) throw notFound(path);
    return sendJsonFile(reply, resolve(dir, 'meta', file), path, META_CACHE_CONTROL);
  });

  // `/builds` itself (where `/builds/` is redirected) is no page either; `/builds/*` misses it.
  const rest = async (request: FastifyRequest) => {
    throw notFound(request.url.split('?')[0] ?? request.url);
  };
  app.get('/builds', { schema }, rest);
  app.get('/builds/*', { schema }, rest);
}
