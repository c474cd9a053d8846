import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { readBuildInfo } from '../../lib/build-info.ts';
import { cookieNames } from '../../contract/cookies.ts';
import { negotiateEncoding } from '../../lib/encoding.ts';
import { PageCache, PageEntry, type StoredHeaders } from '../../lib/page-cache.ts';
import { describeEntry, hitAnswer, storedBody } from '../../lib/page-cache-answer.ts';
import { pageCacheKey, type KeyRequest } from '../../lib/page-cache-key.ts';
import { anonymousAudience, pageHeaders, payloadBuildQuery } from '../../lib/pages/page-headers.ts';
import { pageOf, type PageRequest } from '../../lib/pages/page-request.ts';

/** What the two plugins below share. */
interface PageCacheState {
  cache: PageCache;
  /** The build and content a page is rendered from: an entry of another generation is stale. */
  generation: () => string;
  buildId: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    pageCache: PageCacheState;
  }
}

interface Fill {
  key: string;
  generation: string;
  done: () => void;
}
const fills = new WeakMap<FastifyRequest, Fill>();

const personal = { session: cookieNames.session, flash: cookieNames.flash };
const noCookies: Readonly<Record<string, string | undefined>> = Object.freeze({});
const hit = { result: 'hit' } as const;

export interface PageCacheOptions {
  /** What its pages may hold together (32 MiB), least recently used out first; tests make it small. */
  maxBytes?: number;
}

/**
 * The page cache, and its hits answered by the app's first onRequest hook (app.ts registers this
 * plugin before every other hook): the stored body with every header computed when the entry was
 * filled (decision 0035), the request id and nothing else per request. Whatever a hit cannot
 * answer that way (a compressed variant not made yet, overload shedding that may apply, the
 * shutdown drain) goes on through the hooks, to the `pageCache` plugin below.
 */
export const pageCacheHits = fp<PageCacheOptions>(
  async (app, { maxBytes = 32 * 1024 * 1024 }) => {
    const { config } = app;
    if (config.dev || config.pageCacheTtlMs === 0) return;
    const cache = new PageCache({ ttlMs: config.pageCacheTtlMs, maxBytes });
    const buildId = readBuildInfo(false).id;
    const buildQuery = payloadBuildQuery(buildId);
    // Plugins registered after this one, read once the app is ready.
    let content: { version: string } | undefined;
    let parseCookie: ((header: string) => Record<string, string | undefined>) | undefined;
    let mayShed = () => false;
    app.addHook('onReady', async () => {
      content = app.hasDecorator('content') ? app.content : undefined;
      if (app.hasDecorator('parseCookie')) parseCookie = (header) => app.parseCookie(header);
      if (app.hasDecorator('mayShed')) mayShed = () => app.mayShed();
    });
    let version: string | undefined;
    let current = `${buildId} `;
    const generation = () => {
      if (content?.version !== version) {
        version = content?.version;
        current = `${buildId} ${version ?? ''}`;
      }
      return current;
    };
    app.decorate('pageCache', { cache, generation, buildId });
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;

    // Synchronous, and nothing made per hit but the header list (the request id in it).
    const answerHit: onRequestHookHandler = (request, reply, done) => {
      const { method } = request;
      if ((method !== 'GET' && method !== 'HEAD') || app.shuttingDown || mayShed()) return done();
      const page = pageOf(request);
      if (!page) return done();
      const cookieHeader = request.headers.cookie;
      const cookies = cookieHeader === undefined ? noCookies : parseCookie?.(cookieHeader);
      if (!cookies) return done();
      // Only a path's one spelling is ever stored (plugins/app/canonical-path.ts redirects the others
      // before this cache sees them), so another spelling finds nothing here.
      const key = keyOf({ url: request.url, headers: request.headers, cookies }, page, buildQuery);
      const entry = key === undefined ? undefined : cache.get(key, generation());
      const answer = entry && hitAnswer(entry, negotiateEncoding(request.headers['accept-encoding']));
      if (!answer) return done();
      metrics?.pageCache.inc(hit);
      if (entry.routeLabel) metrics?.labelRoute(request, entry.routeLabel);
      const notModified = entry.matches(request.headers['if-none-match']);
      const headers = (notModified ? answer.notModified : answer.ok).slice();
      headers[answer.idIndex] = request.id;
      // Fastify still logs the request and runs the onResponse hooks (metrics) for a hijacked reply.
      reply.hijack();
      reply.raw.writeHead(notModified ? 304 : 200, headers);
      if (notModified || method === 'HEAD') reply.raw.end();
      else reply.raw.end(answer.body);
    };
    app.addHook('onRequest', answerHit);
  },
  { name: 'page-cache-hits', dependencies: ['config'] },
);

/**
 * Pages for visitors with no session, no Authorization and no flash notice, answered from memory
 * after the first render. Only a 200 rendered for no user, without Set-Cookie or `no-store`, is
 * stored. Off in development, where Vite swaps the renderer on every request. Registered where
 * the pages are: it fills the cache, and answers the hits `pageCacheHits` leaves to the hooks.
 */
export default fp(
  async (app) => {
    if (!app.hasDecorator('pageCache')) return;
    const { cache, generation, buildId } = app.pageCache;
    const buildQuery = payloadBuildQuery(buildId);
    const content = app.hasDecorator('content') ? app.content : undefined;
    content?.onReload(() => cache.clear());
    const securityHeadersOf = app.hasDecorator('securityHeadersOf')
      ? (request: FastifyRequest) => app.securityHeadersOf(request)
      : undefined;
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
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const page = pageOf(request);
      if (!page) return;
      // The overload shedding's 503 lets the hooks go on and may not be `sent` yet.
      if (reply.sent || reply.statusCode !== 200) return;
      reply.header('x-cache', 'MISS');
      const key = keyOf(request, page, buildQuery);
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
      const headers = storableHeaders(request, reply, payload, buildId);
      if (!headers) {
        fill.done();
        return done(null, payload);
      }
      const routeLabel = metrics?.routeLabelOf(request);
      const entry = new PageEntry({
        body: payload as string | Buffer,
        headers,
        ...(securityHeadersOf ? { fixedHeaders: securityHeadersOf(request) } : {}),
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
      if (entry.matches(request.headers['if-none-match'])) {
        describeEntry(request, reply, entry);
        return reply.code(304).send();
      }
      return reply.code(200).send(await storedBody(request, reply, entry));
    }
  },
  { name: 'page-cache', dependencies: ['config', 'page-cache-hits'] },
);

const payloadQuery = ['build'];

/**
 * The page-cache key of the request, or undefined when its answer is not kept. A payload's data
 * depends on its path only; it is kept when asked as this build's pages ask (`?build=<id>`) or
 * with no query, so no other value can fill the cache.
 */
function keyOf(request: KeyRequest, page: PageRequest, buildQuery: string): string | undefined {
  if (page.answer === 'document') return pageCacheKey(request, page.route.query, personal);
  const query = request.url.indexOf('?');
  if (query !== -1 && query + 1 < request.url.length && request.url.slice(query + 1) !== buildQuery) return undefined;
  return pageCacheKey(request, payloadQuery, personal);
}

/**
 * The page's headers (lib/pages/page-headers.ts), when the answer may be stored with them: a 200
 * rendered for no user, without a cookie or its own encoding, sent with exactly those headers (a
 * page that adds `no-store`, as emailed links' pages do, is never stored).
 */
function storableHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  buildId: string,
): StoredHeaders | null {
  // A user resolved some way the key does not see must not make a personal render everybody's.
  // (`user` is undefined in an app built without accounts.)
  if (request.user != null) return null;
  if (reply.statusCode !== 200 || reply.hasHeader('set-cookie') || reply.hasHeader('content-encoding')) return null;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  const page = pageOf(request);
  if (!page) return null;
  const headers = pageHeaders(page, anonymousAudience(page, request, buildId));
  const sent = (name: string) => reply.getHeader(name)?.toString();
  const same = (Object.keys(headers) as Array<keyof StoredHeaders>).every((name) => sent(name) === headers[name]);
  return same && (headers.vary !== undefined || !reply.hasHeader('vary')) ? headers : null;
}
