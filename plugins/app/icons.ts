import { createHash } from 'node:crypto';
import type { IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../contract/http-error.ts';
import { type IconAnswer, noStore } from '../../lib/icons/answer.ts';
import { iconCache } from '../../lib/icons/cache.ts';
import { loadIcons, loadLocalSet, type RenderedIcon } from '../../lib/icons/local-sets.ts';
import { fetchUpstreamIcons, UpstreamError } from '../../lib/icons/upstream.ts';
import { upstreamBudget } from '../../lib/icons/upstream-budget.ts';

declare module 'fastify' {
  interface FastifyInstance {
    icons: {
      /** For the server renderer: installed sets only, never the upstream. */
      load(names: readonly string[]): Promise<Record<string, RenderedIcon>>;
      /**
       * Throws HttpError 502/504 when the upstream fails, 503 past the process's allowance, and
       * what `beforeUpstream` throws, which runs only before a new upstream call of this request.
       */
      answer(
        log: FastifyBaseLogger,
        collection: string,
        names: string[],
        options?: { beforeUpstream?: () => Promise<void> },
      ): Promise<IconAnswer>;
    };
  }
}

export interface IconsPluginOptions {
  /** How long the upstream may take, body included. */
  upstreamTimeoutMs?: number;
  cacheEntries?: number;
  cacheBytes?: number;
  /** Upstream calls at once, for the whole process; more are refused with 503. */
  upstreamConcurrency?: number;
  /** Upstream calls started in any minute, for the whole process; more are refused with 503. */
  upstreamPerMinute?: number;
  /** The clock of that minute, in milliseconds (tests hold it still). */
  now?: () => number;
}

const FOUND_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const MISSING_TTL_MS = 5 * 60 * 1000;
const UPSTREAM_MAX_BYTES = 4 * 1024 * 1024;
const UNKNOWN_COLLECTION_TTL_MS = 10 * 60 * 1000;
const UNKNOWN_COLLECTIONS = 1000;
const MISSING_ICONS = 5000;

function collectionNotFound(collection: string): IconAnswer {
  return { found: false, code: 'ICON_COLLECTION_NOT_FOUND', message: `No icon collection named ${collection}` };
}

function iconsNotFound(collection: string, names: string[]): IconAnswer {
  return { found: false, code: 'ICONS_NOT_FOUND', message: `No such icons in ${collection}: ${names.join(', ')}` };
}

/** A call refused by its caller's limit: requests that shared it try again under their own. */
class NotAdmitted extends Error {
  constructor(readonly refusal: unknown) {
    super('not admitted to the upstream');
  }
}

function answerFrom(set: IconifyJSON, collection: string, names: string[]): IconAnswer {
  const subset = getIcons(set, names, true);
  if (!subset || Object.keys(subset.icons).length === 0) return iconsNotFound(collection, names);
  const body = JSON.stringify(subset);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { found: true, body, etag };
}

/**
 * Installed sets answer directly, other collections `ICON_UPSTREAM_URL` (decision 0003), within
 * limits per address and per process, remembering what it does not have (decision 0027).
 */
export default fp<IconsPluginOptions>(
  async (app, options) => {
    const timeoutMs = options.upstreamTimeoutMs ?? 1500;
    const cache = iconCache<IconAnswer>(options.cacheEntries ?? 500, options.cacheBytes ?? 16 * 1024 * 1024);
    const inFlight = new Map<string, Promise<IconAnswer>>();
    const baseUrl = app.config.iconUpstreamUrl;
    const budget = upstreamBudget({
      concurrency: options.upstreamConcurrency ?? 4,
      perMinute: options.upstreamPerMinute ?? 60,
      ...(options.now ? { now: options.now } : {}),
    });
    const unknownCollections = iconCache<true>(UNKNOWN_COLLECTIONS);
    const missingIcons = iconCache<true>(MISSING_ICONS);
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    const tracing = app.hasDecorator('tracing') ? app.tracing : undefined;

    function remember(key: string, answer: IconAnswer): IconAnswer {
      if (answer.found) cache.set(key, answer, { ttl: FOUND_TTL_MS, size: answer.body.length + key.length });
      else cache.set(key, answer, { ttl: MISSING_TTL_MS, size: answer.message.length + key.length });
      return answer;
    }

    async function callUpstream(
      collection: string,
      names: string[],
      key: string,
      beforeUpstream?: () => Promise<void>,
    ): Promise<IconAnswer> {
      try {
        await beforeUpstream?.();
      } catch (error) {
        throw new NotAdmitted(error);
      }
      // The limit may have made this request wait; another may have found out meanwhile.
      if (unknownCollections.get(collection)) return collectionNotFound(collection);
      const slot = budget.take();
      if (!slot.ok) {
        metrics?.rateLimitRefusals.inc({ limit: 'icon-upstream-process' });
        throw new NotAdmitted(
          new HttpError(
            503,
            'ICON_UPSTREAM_BUSY',
            `The icon service is busy. Try again in ${slot.retryAfterSeconds} seconds.`,
            undefined,
            {
              ...noStore,
              'retry-after': String(slot.retryAfterSeconds),
            },
          ),
        );
      }
      try {
        const set = await fetchUpstreamIcons({
          baseUrl,
          collection,
          names,
          timeoutMs,
          maxBytes: UPSTREAM_MAX_BYTES,
          tracing,
        });
        if (!set) {
          unknownCollections.set(collection, true, { ttl: UNKNOWN_COLLECTION_TTL_MS });
          return remember(key, collectionNotFound(collection));
        }
        const answer = answerFrom(set, collection, names);
        // None of these icons is asked for again, in any combination, for a while.
        if (!answer.found)
          for (const name of names) missingIcons.set(`${collection}:${name}`, true, { ttl: MISSING_TTL_MS });
        return remember(key, answer);
      } finally {
        slot.release();
      }
    }

    function start(
      collection: string,
      names: string[],
      key: string,
      beforeUpstream?: () => Promise<void>,
    ): Promise<IconAnswer> {
      const pending = callUpstream(collection, names, key, beforeUpstream).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
      return pending;
    }

    function upstreamFailure(log: FastifyBaseLogger, collection: string, error: unknown): unknown {
      // Failures are not cached: the next request asks the upstream again.
      if (!(error instanceof UpstreamError)) return error;
      log.warn({ err: error, collection }, 'icon upstream failed');
      return error.kind === 'timeout'
        ? new HttpError(504, 'ICON_UPSTREAM_TIMEOUT', 'The icon service did not answer in time.', undefined, noStore)
        : new HttpError(502, 'ICON_UPSTREAM_FAILED', 'The icon service failed to answer.', undefined, noStore);
    }

    async function fromUpstream(
      log: FastifyBaseLogger,
      key: string,
      collection: string,
      names: string[],
      beforeUpstream?: () => Promise<void>,
    ): Promise<IconAnswer> {
      for (;;) {
        if (unknownCollections.get(collection)) return collectionNotFound(collection);
        if (names.every((name) => missingIcons.get(`${collection}:${name}`))) return iconsNotFound(collection, names);
        const cached = cache.get(key);
        if (cached) return cached;
        const shared = inFlight.get(key);
        const mine = !shared;
        try {
          return await (shared ?? start(collection, names, key, beforeUpstream));
        } catch (error) {
          if (error instanceof NotAdmitted) {
            // Refused its caller's limit: try again under ours.
            if (!mine) continue;
            throw error.refusal;
          }
          throw upstreamFailure(log, collection, error);
        }
      }
    }

    app.decorate('icons', {
      load: loadIcons,
      async answer(log, collection, names, { beforeUpstream } = {}) {
        const key = `${collection}:${names.join(',')}`;
        const cached = cache.get(key);
        if (cached) return cached;
        const local = await loadLocalSet(collection);
        if (local) {
          const answer = answerFrom(local, collection, names);
          // Local misses are cheap to recompute.
          return answer.found ? remember(key, answer) : answer;
        }
        return fromUpstream(log, key, collection, names, beforeUpstream);
      },
    });
  },
  { name: 'icons', dependencies: ['config'] },
);
