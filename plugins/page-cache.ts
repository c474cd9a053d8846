import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { readBuildInfo } from '../lib/build-info.ts';
import { cookieNames } from '../contract/cookies.ts';
import { PageCache, PageEntry, type StoredHeaders } from '../lib/page-cache.ts';
import { describeEntry, storedBody } from '../lib/page-cache-answer.ts';
import { pageCacheKey } from '../lib/page-cache-key.ts';

/** The pages' route (routes/pages.ts): documents and `_payload.json`. */
const pagesRoute = '/*';

interface Fill {
  key: string;
  generation: string;
  done: () => void;
}
const fills = new WeakMap<FastifyRequest, Fill>();

/**
 * Pages for visitors with no session, no Authorization and no flash notice, answered from memory
 * after the first render. Only a 200 rendered for no user, without Set-Cookie or `no-store`, is
 * stored. Off in development, where Vite swaps the renderer on every request.
 */
export default fp(
  async (app) => {
    const { config } = app;
    if (config.dev || config.pageCacheTtlMs === 0 || config.pageCacheMaxBytes === 0) return;
    const cache = new PageCache({ ttlMs: config.pageCacheTtlMs, maxBytes: config.pageCacheMaxBytes });
    const buildId = readBuildInfo(false).id;
    const content = app.hasDecorator('content') ? app.content : undefined;
    const generation = () => `${buildId} ${content?.version ?? ''}`;
    content?.onReload(() => cache.clear());
    const personal = { session: cookieNames.session, flash: cookieNames.flash };
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    if (metrics) {
      new Gauge({
        name: 'page_cache_bytes',
        help: 'Bytes the page cache holds (every encoding of every page).',
        registers: [metrics.registry],
        collect() {
          this.set(cache.bytes);
        },
      });
      new Gauge({
        name: 'page_cache_entries',
        help: 'Pages the page cache holds (each key once, whatever its encodings).',
        registers: [metrics.registry],
        collect() {
          this.set(cache.size);
        },
      });
    }

    app.addHook('onRequest', async (request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || request.routeOptions.url !== pagesRoute) return;
      // The overload shedding's 503 lets the hooks go on and may not be `sent` yet.
      if (reply.sent || reply.statusCode !== 200) return;
      reply.header('x-cache', 'MISS');
      const key = pageCacheKey(request, personal);
      if (key === undefined) return;
      const current = generation();
      let entry = cache.get(key, current);
      if (!entry) {
        const done = cache.claim(key);
        if (done) {
          metrics?.pageCache.inc({ result: 'miss' });
          fills.set(request, { key, generation: current, done });
          // Whatever happens to the response, the waiters are let go.
          reply.raw.once('close', done);
          return;
        }
        await cache.rendered(key);
        entry = cache.get(key, current);
        if (!entry) {
          metrics?.pageCache.inc({ result: 'miss' });
          return;
        }
      }
      metrics?.pageCache.inc({ result: 'hit' });
      return sendEntry(request, reply, entry);
    });

    // Synchronous when it fills nothing: an async hook would make each send asynchronous, and the
    // overload shedding's 503 would not yet count as sent when the next onRequest hook asks.
    app.addHook('onSend', (request, reply, payload, done) => {
      const fill = fills.get(request);
      if (!fill) return done(null, payload);
      fills.delete(request);
      const headers = storableHeaders(request, reply, payload);
      if (!headers) {
        fill.done();
        return done(null, payload);
      }
      const routeLabel = metrics?.routeLabelOf(request);
      const entry = new PageEntry({
        body: payload as string | Buffer,
        headers,
        generation: fill.generation,
        ...(routeLabel ? { routeLabel } : {}),
      });
      cache.set(fill.key, entry);
      fill.done();
      // The miss answers like a hit would, so its compression is the one later hits reuse.
      storedBody(request, reply, entry).then((body) => done(null, body), done);
    });

    async function sendEntry(request: FastifyRequest, reply: FastifyReply, entry: PageEntry) {
      reply.header('x-cache', 'HIT');
      if (entry.routeLabel) metrics?.labelRoute(request, entry.routeLabel);
      for (const [name, value] of Object.entries(entry.headers)) reply.header(name, value);
      if (entry.matches(request.headers['if-none-match'])) {
        describeEntry(request, reply, entry);
        return reply.code(304).send();
      }
      return reply.code(200).send(await storedBody(request, reply, entry));
    }
  },
  { name: 'page-cache', dependencies: ['config'] },
);

function storableHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): StoredHeaders | null {
  // A user resolved some way the key does not see must not make a personal render everybody's.
  // (`user` is undefined in an app built without accounts.)
  if (request.user != null) return null;
  if (reply.statusCode !== 200 || reply.hasHeader('set-cookie') || reply.hasHeader('content-encoding')) return null;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  const type = String(reply.getHeader('content-type') ?? '');
  if (!/^(?:text\/html|application\/json)\b/.test(type)) return null;
  const cacheControl = reply.getHeader('cache-control');
  // `private` is for shared caches; this one is the origin's own. `no-store` it honours.
  if (cacheControl !== undefined && /\bno-store\b/.test(String(cacheControl))) return null;
  const vary = reply.getHeader('vary');
  return {
    'content-type': type,
    ...(cacheControl !== undefined ? { 'cache-control': String(cacheControl) } : {}),
    ...(vary !== undefined ? { vary: String(vary) } : {}),
  };
}
