import { createHash } from 'node:crypto';
import type { IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { errorResponseSchema, HttpError } from '../lib/http-error.ts';
import { loadIcons, loadLocalSet, type RenderedIcon } from '../lib/icons/local-sets.ts';
import { LruCache } from '../lib/icons/lru.ts';
import {
  collectionFromParam,
  ICON_NAME_PATTERN,
  MAX_ICONS_PER_REQUEST,
  MAX_NAME_LENGTH,
  parseIconsQuery,
} from '../lib/icons/names.ts';
import { fetchUpstreamIcons, UpstreamError } from '../lib/icons/upstream.ts';

export { loadIcons, type RenderedIcon } from '../lib/icons/local-sets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** In-process icon lookup for the server renderer: installed sets only, never the upstream. */
    icons: {
      load(names: readonly string[]): Promise<Record<string, RenderedIcon>>;
    };
  }
}

export interface IconsPluginOptions {
  /** How long the upstream may take, body included (default 1500 ms, the spec's icon fetch timeout). */
  upstreamTimeoutMs?: number;
  /** Bound of the response cache, in entries (default 500) ... */
  cacheEntries?: number;
  /** ... and in bytes of JSON kept (default 16 MiB). */
  cacheBytes?: number;
}

export const ICON_CACHE_CONTROL = 'public, max-age=604800, stale-while-revalidate=86400';
const FOUND_TTL_MS = 7 * 24 * 60 * 60 * 1000;
// "Not found" from the upstream is a real answer, but one worth re-asking about soon.
const MISSING_TTL_MS = 5 * 60 * 1000;
const UPSTREAM_MAX_BYTES = 4 * 1024 * 1024;
const noStore = { 'cache-control': 'no-store' };

type Answer =
  | { found: true; body: string; etag: string }
  | { found: false; code: 'ICONS_NOT_FOUND' | 'ICON_COLLECTION_NOT_FOUND'; message: string };

function invalid(message: string): HttpError {
  return new HttpError(400, 'INVALID_ICON_REQUEST', message, undefined, noStore);
}

/** The IconifyJSON subset for `names` (aliases with their parents, `not_found` for the rest). */
function answerFrom(set: IconifyJSON, collection: string, names: string[]): Answer {
  const subset = getIcons(set, names, true);
  if (!subset || Object.keys(subset.icons).length === 0) {
    return { found: false, code: 'ICONS_NOT_FOUND', message: `No such icons in ${collection}: ${names.join(', ')}` };
  }
  const body = JSON.stringify(subset);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { found: true, body, etag };
}

/** `If-None-Match` matches with the weak comparison RFC 9110 asks for. */
function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

const iconsRouteSchema = {
  params: {
    type: 'object',
    properties: {
      collection: { type: 'string', maxLength: MAX_NAME_LENGTH + '.json'.length, pattern: `${ICON_NAME_PATTERN.slice(0, -1)}\\.json$` },
    },
    required: ['collection'],
  },
  querystring: {
    type: 'object',
    properties: {
      // A comma-separated list; repeated `icons=` params join.
      icons: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: MAX_ICONS_PER_REQUEST * (MAX_NAME_LENGTH + 1) },
        minItems: 1,
        maxItems: MAX_ICONS_PER_REQUEST,
      },
    },
    required: ['icons'],
  },
  response: {
    200: {
      description: 'IconifyJSON subset of the collection',
      type: 'object',
      properties: {
        prefix: { type: 'string' },
        icons: { type: 'object', additionalProperties: true },
        aliases: { type: 'object', additionalProperties: true },
        not_found: { type: 'array', items: { type: 'string' } },
        lastModified: { type: 'number' },
        width: { type: 'number' },
        height: { type: 'number' },
        left: { type: 'number' },
        top: { type: 'number' },
      },
      required: ['prefix', 'icons'],
    },
    304: { description: 'Not modified', type: 'null' },
    400: errorResponseSchema,
    404: errorResponseSchema,
    502: errorResponseSchema,
    504: errorResponseSchema,
  },
} as const;

/**
 * `GET /api/_nuxt_icon/{collection}.json?icons=a,b`: what @nuxt/icon's client asks its server for.
 * Installed `@iconify-json/*` sets answer directly; other collections come from the Iconify API
 * (`ICON_UPSTREAM_URL`), with one shared call per distinct request and a bounded in-memory cache.
 * See docs/decisions/0003-icons.md.
 */
export default fp<IconsPluginOptions>(
  async (app, options) => {
    const timeoutMs = options.upstreamTimeoutMs ?? 1500;
    const cache = new LruCache<Answer>(options.cacheEntries ?? 500, options.cacheBytes ?? 16 * 1024 * 1024);
    const inFlight = new Map<string, Promise<Answer>>();
    const baseUrl = app.config.iconUpstreamUrl;

    app.decorate('icons', { load: loadIcons });

    function remember(key: string, answer: Answer): Answer {
      if (answer.found) cache.set(key, answer, { ttlMs: FOUND_TTL_MS, size: answer.body.length + key.length });
      else cache.set(key, answer, { ttlMs: MISSING_TTL_MS, size: answer.message.length + key.length });
      return answer;
    }

    async function fromUpstream(log: FastifyBaseLogger, key: string, collection: string, names: string[]): Promise<Answer> {
      let pending = inFlight.get(key);
      if (!pending) {
        pending = (async () => {
          const set = await fetchUpstreamIcons({ baseUrl, collection, names, timeoutMs, maxBytes: UPSTREAM_MAX_BYTES });
          const answer: Answer = set
            ? answerFrom(set, collection, names)
            : { found: false, code: 'ICON_COLLECTION_NOT_FOUND', message: `No icon collection named ${collection}` };
          return remember(key, answer);
        })().finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      try {
        return await pending;
      } catch (error) {
        // Failures are not cached: the next request asks the upstream again.
        if (!(error instanceof UpstreamError)) throw error;
        log.warn({ err: error, collection }, 'icon upstream failed');
        throw error.kind === 'timeout'
          ? new HttpError(504, 'ICON_UPSTREAM_TIMEOUT', 'The icon service did not answer in time.', undefined, noStore)
          : new HttpError(502, 'ICON_UPSTREAM_FAILED', 'The icon service failed to answer.', undefined, noStore);
      }
    }

    function send(reply: FastifyReply, answer: Answer, ifNoneMatch: string | undefined) {
      if (!answer.found) throw new HttpError(404, answer.code, answer.message, undefined, noStore);
      reply.header('cache-control', ICON_CACHE_CONTROL).header('etag', answer.etag);
      if (isFresh(ifNoneMatch, answer.etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(answer.body);
    }

    app.get<{ Params: { collection: string }; Querystring: { icons?: unknown } }>(
      '/api/_nuxt_icon/:collection',
      { schema: iconsRouteSchema, attachValidation: true },
      async (request, reply) => {
        // Anything that goes wrong below must not be cached by browsers or proxies.
        reply.header('cache-control', 'no-store');
        if (request.validationError) throw invalid(`Invalid icon request: ${request.validationError.message}`);
        const collection = collectionFromParam(request.params.collection);
        if (!collection) throw invalid('Invalid icon collection name.');
        const parsed = parseIconsQuery(request.query.icons);
        if (!parsed.ok) throw invalid(parsed.reason);
        const names = parsed.names;
        const ifNoneMatch = request.headers['if-none-match'];

        const key = `${collection}:${names.join(',')}`;
        const cached = cache.get(key);
        if (cached) return send(reply, cached, ifNoneMatch);

        const local = await loadLocalSet(collection);
        if (local) {
          const answer = answerFrom(local, collection, names);
          // Local misses are cheap to recompute: keep the cache for answers worth keeping.
          if (answer.found) remember(key, answer);
          return send(reply, answer, ifNoneMatch);
        }
        return send(reply, await fromUpstream(request.log, key, collection, names), ifNoneMatch);
      },
    );
  },
  { name: 'icons', dependencies: ['config'] },
);
