import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { readBuildInfo } from '../lib/build-info.ts';
import { cookieNames } from '../contract/cookies.ts';
import { negotiateEncoding, varyWithAcceptEncoding } from '../lib/encoding.ts';
import { PageCache, PageEntry, type StoredHeaders } from '../lib/page-cache.ts';
import { pageCacheKey } from '../lib/page-cache-key.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The anonymous page cache, or null when it is off (PAGE_CACHE_TTL_MS=0, development). */
    pageCache: PageCache | null;
  }
}

/** The pages' route (routes/pages.ts): documents and `_payload.json`. */
const pagesRoute = '/*';

interface Fill {
  key: string;
  generation: string;
  done: () => void;
}
const fills = new WeakMap<FastifyRequest, Fill>();

/**
 * The anonymous page cache: GET/HEAD of pages from visitors with no session, no Authorization
 * and no flash notice are answered from memory after the first render (lib/page-cache.ts), with
 * `X-Cache: HIT` or `MISS`, an ETag per encoding and 304. A response is stored only when it is a
 * 200 with no Set-Cookie and no `Cache-Control: no-store`, rendered for no user (`request.user`),
 * so nothing personal can enter.
 * Entries belong to a generation (the build and the content version): a content reload drops
 * them all, and a new build is a new process (decision 0005). Registered before the pages so its
 * hooks see every page request; off in development (Vite swaps the renderer on every request).
 */
export default fp(
  async (app) => {
    const { config } = app;
    if (config.dev || config.pageCacheTtlMs === 0 || config.pageCacheMaxBytes === 0) {
      app.decorate('pageCache', null);
      return;
    }
    const cache = new PageCache({ ttlMs: config.pageCacheTtlMs, maxBytes: config.pageCacheMaxBytes });
    app.decorate('pageCache', cache);
    const buildId = readBuildInfo(false).id;
    // Apps built without content (some tests) have no content version to follow.
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
    }

    app.addHook('onRequest', async (request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || request.routeOptions.url !== pagesRoute) return;
      // Already answered by an earlier hook: the overload shedding's 503 lets the hooks go on,
      // and its send may still be in its onSend hooks (not `sent` yet), but its status is set.
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
          // Whatever happens to the response (an error, a client gone), the waiters are let go.
          reply.raw.once('close', done);
          return;
        }
        // Another request is rendering this page: wait for it rather than render it again.
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

    // A callback hook, synchronous for every response that fills nothing: an async one would make
    // each send asynchronous, and an earlier onRequest answer (the overload shedding's 503, which
    // lets the hooks go on) would not yet count as sent when the next hook asks.
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
        describe(request, reply, entry);
        return reply.code(304).send();
      }
      return reply.code(200).send(await storedBody(request, reply, entry));
    }
  },
  { name: 'page-cache', dependencies: ['config'] },
);

/** Sets the representation headers (encoding, ETag, Vary) and returns the bytes to send. */
export async function storedBody(request: FastifyRequest, reply: FastifyReply, entry: PageEntry): Promise<Buffer> {
  const encoding = describe(request, reply, entry);
  const body = await entry.body(encoding);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return body;
}

function describe(request: FastifyRequest, reply: FastifyReply, entry: PageEntry) {
  const encoding = entry.encodingFor(negotiateEncoding(request.headers['accept-encoding']));
  reply.header('etag', entry.etag(encoding));
  if (entry.encodingFor('br') !== 'identity') reply.header('vary', varyWithAcceptEncoding(entry.headers.vary));
  return encoding;
}

/** The headers to store with a response, or null when it must not be stored. */
function storableHeaders(request: FastifyRequest, reply: FastifyReply, payload: unknown): StoredHeaders | null {
  // The key already leaves out requests with a session cookie or an Authorization header; a user
  // resolved any other way must not make a personal render everybody's either. (`user` is
  // undefined, not null, in an app built without accounts.)
  if (request.user != null) return null;
  if (reply.statusCode !== 200 || reply.hasHeader('set-cookie') || reply.hasHeader('content-encoding')) return null;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  const type = String(reply.getHeader('content-type') ?? '');
  if (!/^(?:text\/html|application\/json)\b/.test(type)) return null;
  const cacheControl = reply.getHeader('cache-control');
  // `private` is for shared caches (payloads are always marked so); this cache is the origin's own
  // and only ever holds anonymous renders. `no-store` (link pages carrying a token) it honours.
  if (cacheControl !== undefined && /\bno-store\b/.test(String(cacheControl))) return null;
  const vary = reply.getHeader('vary');
  return {
    'content-type': type,
    ...(cacheControl !== undefined ? { 'cache-control': String(cacheControl) } : {}),
    ...(vary !== undefined ? { vary: String(vary) } : {}),
  };
}
