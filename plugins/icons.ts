import { createHash } from 'node:crypto';
import type { IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../contract/http-error.ts';
import { iconCache } from '../lib/icons/cache.ts';
import { loadIcons, loadLocalSet, type RenderedIcon } from '../lib/icons/local-sets.ts';
import { fetchUpstreamIcons, UpstreamError } from '../lib/icons/upstream.ts';

export { loadIcons, type RenderedIcon } from '../lib/icons/local-sets.ts';

/** What `GET /api/_nuxt_icon/...` answers for one collection and list of names. */
export type IconAnswer =
  | { found: true; body: string; etag: string }
  | { found: false; code: 'ICONS_NOT_FOUND' | 'ICON_COLLECTION_NOT_FOUND'; message: string };

declare module 'fastify' {
  interface FastifyInstance {
    icons: {
      /** In-process icon lookup for the server renderer: installed sets only, never the upstream. */
      load(names: readonly string[]): Promise<Record<string, RenderedIcon>>;
      /**
       * The IconifyJSON subset of validated `names` of `collection`: an installed set, or the
       * upstream's (one shared call per distinct request, cached). Throws HttpError 502/504
       * when the upstream fails.
       */
      answer(log: FastifyBaseLogger, collection: string, names: string[]): Promise<IconAnswer>;
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

const FOUND_TTL_MS = 7 * 24 * 60 * 60 * 1000;
// "Not found" from the upstream is a real answer, but one worth re-asking about soon.
const MISSING_TTL_MS = 5 * 60 * 1000;
const UPSTREAM_MAX_BYTES = 4 * 1024 * 1024;
export const noStore = { 'cache-control': 'no-store' };

/** The IconifyJSON subset for `names` (aliases with their parents, `not_found` for the rest). */
function answerFrom(set: IconifyJSON, collection: string, names: string[]): IconAnswer {
  const subset = getIcons(set, names, true);
  if (!subset || Object.keys(subset.icons).length === 0) {
    return { found: false, code: 'ICONS_NOT_FOUND', message: `No such icons in ${collection}: ${names.join(', ')}` };
  }
  const body = JSON.stringify(subset);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { found: true, body, etag };
}

/**
 * Icons: `app.icons.load` for the renderer, and `app.icons.answer` behind
 * `GET /api/_nuxt_icon/{collection}.json` (routes/api/icons.ts). Installed `@iconify-json/*`
 * sets answer directly; other collections come from the Iconify API (`ICON_UPSTREAM_URL`), with
 * one shared call per distinct request and a bounded in-memory cache. See docs/decisions/0003-icons.md.
 */
export default fp<IconsPluginOptions>(
  async (app, options) => {
    const timeoutMs = options.upstreamTimeoutMs ?? 1500;
    const cache = iconCache<IconAnswer>(options.cacheEntries ?? 500, options.cacheBytes ?? 16 * 1024 * 1024);
    const inFlight = new Map<string, Promise<IconAnswer>>();
    const baseUrl = app.config.iconUpstreamUrl;

    function remember(key: string, answer: IconAnswer): IconAnswer {
      if (answer.found) cache.set(key, answer, { ttl: FOUND_TTL_MS, size: answer.body.length + key.length });
      else cache.set(key, answer, { ttl: MISSING_TTL_MS, size: answer.message.length + key.length });
      return answer;
    }

    async function fromUpstream(log: FastifyBaseLogger, key: string, collection: string, names: string[]): Promise<IconAnswer> {
      let pending = inFlight.get(key);
      if (!pending) {
        pending = (async () => {
          const set = await fetchUpstreamIcons({ baseUrl, collection, names, timeoutMs, maxBytes: UPSTREAM_MAX_BYTES });
          const answer: IconAnswer = set
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

    app.decorate('icons', {
      load: loadIcons,
      async answer(log, collection, names) {
        const key = `${collection}:${names.join(',')}`;
        const cached = cache.get(key);
        if (cached) return cached;
        const local = await loadLocalSet(collection);
        if (local) {
          const answer = answerFrom(local, collection, names);
          // Local misses are cheap to recompute: keep the cache for answers worth keeping.
          return answer.found ? remember(key, answer) : answer;
        }
        return fromUpstream(log, key, collection, names);
      },
    });
  },
  { name: 'icons', dependencies: ['config'] },
);
