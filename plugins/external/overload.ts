import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { wantsJson } from '../../lib/accept.ts';
import { noticePages } from '../../lib/notice-page.ts';
import { splitLocale } from '../../contract/locales.ts';

const retryAfterSeconds = 5;
/** ms between under-pressure's samples. */
const sampleInterval = 500;
/** Probes and the files pages point at, by the route matched (the pages' catch-all also takes `/assets/x`). */
const exempt = (request: FastifyRequest) =>
  /^\/(?:healthz|readyz)$|^\/(?:assets|builds)\//.test(request.routeOptions.url ?? '');

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a page request may be shed now: the page cache then leaves its hits to the shedding hooks. */
    mayShed(): boolean;
  }
}

export interface OverloadPluginOptions {
  /** How long shedding everything lasts before /readyz fails (default 10 s; tests shorten it). */
  reportAfterMs?: number;
  /** Shed past this heap use, before V8 runs out (default 90 % of its heap limit, set by NODE_OPTIONS); 0: never. */
  maxHeapUsedBytes?: number;
}

/** Overload shedding (decisions 0012, 0052): a 503 at once rather than a queue until clients time out. */
export default fp<OverloadPluginOptions>(
  async (app, { reportAfterMs = 10_000, maxHeapUsedBytes = Math.floor(getHeapStatistics().heap_size_limit * 0.9) }) => {
    const { config, requestsInFlight } = app;
    const maxEventLoopDelay = config.overloadMaxEventLoopDelayMs;
    const pages = noticePages('overload');
    const message = `The service is busy. Try again in ${retryAfterSeconds} seconds.`;
    const busyJson = JSON.stringify({ statusCode: 503, code: 'OVERLOADED', message });
    const shedTotal = app.hasDecorator('metrics') ? app.metrics.shed : undefined;

    // The first sample measures the start itself: the delay counts from the next one.
    let delayCounts = false;
    app.addHook('onReady', async () => {
      setTimeout(() => {
        delayCounts = true;
        app.log.debug({ maxEventLoopDelay, maxHeapUsedBytes }, 'overload shedding on');
      }, sampleInterval + 100).unref();
    });
    let sheddingSince: number | undefined;

    function shed(request: FastifyRequest, reply: FastifyReply, reason: string): void {
      if (exempt(request) || (reason === 'eventLoopDelay' && !delayCounts)) return;
      sheddingSince ??= Date.now();
      shedTotal?.inc({ reason });
      reply.code(503).header('retry-after', String(retryAfterSeconds)).header('cache-control', 'no-store');
      const path = request.url.split('?')[0] ?? '/';
      const api = request.routeOptions.url?.startsWith('/api/') === true;
      if (api || path.endsWith('/_payload.json') || wantsJson(request.headers.accept))
        reply.type('application/json; charset=utf-8').send(busyJson);
      else reply.type('text/html; charset=utf-8').send(pages[splitLocale(path).locale]);
    }

    const maxInFlight = config.overloadMaxInFlight;
    const full = () => maxInFlight > 0 && requestsInFlight.admitted >= maxInFlight;
    if (maxInFlight > 0) {
      // Already full: shed before a body is read at all.
      app.addHook('onRequest', (request, reply, done) =>
        full() && !exempt(request) ? shed(request, reply, 'inFlight') : done(),
      );
      // Once the body has arrived (decision 0026), until the work is done (decision 0032).
      app.addHook('preHandler', (request, reply, done) => {
        if (exempt(request)) return done();
        if (full()) return shed(request, reply, 'inFlight');
        sheddingSince = undefined;
        requestsInFlight.admit(request);
        // Two event-loop turns, so a client that has already closed is not worked on (decision 0012).
        setImmediate(() =>
          setImmediate(() => {
            const socket = request.raw.socket as { destroyed?: boolean; writableEnded?: boolean } | null;
            if (socket?.destroyed !== true && socket?.writableEnded !== true) return done();
            shedTotal?.inc({ reason: 'clientGone' });
            if (!reply.sent) reply.code(503).header('connection', 'close').send();
            requestsInFlight.done(request);
          }),
        );
      });
    }

    await app.register(underPressure, { maxEventLoopDelay, maxHeapUsedBytes, sampleInterval, pressureHandler: shed });
    app.decorate('mayShed', () => full() || app.isUnderPressure());

    // Shedding everything for `reportAfterMs` fails /readyz, so a replica held full leaves the pool.
    app.readinessChecks.set('overload', async () => {
      if (!full() && !(delayCounts && app.isUnderPressure())) sheddingSince = undefined;
      else if (sheddingSince !== undefined && Date.now() - sheddingSince >= reportAfterMs)
        throw new Error(`every page and API request shed for ${Math.round((Date.now() - sheddingSince) / 1000)} s`);
    });
  },
  { name: 'overload', dependencies: ['config', 'health', 'requests-in-flight'] },
);
