import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { wantsJson } from '../lib/accept.ts';
import { noticePages } from '../lib/notice-page.ts';
import { splitLocale } from '../contract/locales.ts';

const overloadRetryAfterSeconds = 5;

const sampleIntervalMs = 500;

/** Cheap answers that keep coming under overload: probes, and files the pages already point at. */
const exemptRoute = /^\/(?:healthz|readyz)$|^\/(?:assets|builds)\//;
/** Decided on the route the request matched (the pages' catch-all also takes `/assets/unknown`). */
const exempt = (request: FastifyRequest) => exemptRoute.test(request.routeOptions.url ?? '');

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Whether the shedding hooks may answer a page request 503 now: the page cache then leaves
     * its hits to them (plugins/page-cache.ts), so a hit is shed as any other request.
     */
    mayShed(): boolean;
  }
}

/** Overload shedding (decision 0012): a 503 at once rather than a queue until clients time out. */
export interface OverloadPluginOptions {
  /** How long shedding everything lasts before /readyz fails (default 10 s; tests shorten it). */
  reportAfterMs?: number;
}

export default fp<OverloadPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const maxEventLoopDelay = config.overloadMaxEventLoopDelayMs;
    // Shed before V8 runs out of heap: a crash loses every request in flight.
    const maxHeapUsedBytes = config.overloadMaxHeapBytes ?? Math.floor(getHeapStatistics().heap_size_limit * 0.9);
    const pages = noticePages('overload');
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    const busyJson = JSON.stringify({
      statusCode: 503,
      code: 'OVERLOADED',
      message: `The service is busy. Try again in ${overloadRetryAfterSeconds} seconds.`,
    });

    // The first sample measures the start itself: the delay counts from the next one.
    let delayCounts = false;
    app.addHook('onReady', async () => {
      setTimeout(() => {
        delayCounts = true;
        if (maxEventLoopDelay > 0 || maxHeapUsedBytes > 0) {
          app.log.debug({ maxEventLoopDelay, maxHeapUsedBytes }, 'overload shedding on');
        }
      }, sampleIntervalMs + 100).unref();
    });

    // Shedding everything for `reportAfterMs` fails /readyz, so a replica held full leaves the pool.
    let sheddingSince: number | undefined;
    const shedNoLonger = () => {
      sheddingSince = undefined;
    };

    /** Answers 503, unless the request is exempt. */
    function shed(request: FastifyRequest, reply: FastifyReply, reason: string): void {
      if (exempt(request)) return;
      if (reason === 'eventLoopDelay' && !delayCounts) return;
      sheddingSince ??= Date.now();
      metrics?.shed.inc({ reason });
      reply.code(503).header('retry-after', String(overloadRetryAfterSeconds)).header('cache-control', 'no-store');
      const path = request.url.split('?')[0] ?? '/';
      const api = request.routeOptions.url?.startsWith('/api/') === true;
      const json = api || path.endsWith('/_payload.json') || wantsJson(request.headers.accept);
      if (json) reply.type('application/json; charset=utf-8').send(busyJson);
      else reply.type('text/html; charset=utf-8').send(pages[splitLocale(path).locale]);
    }

    const maxInFlight = config.overloadMaxInFlight;
    const { requestsInFlight } = app;
    const full = () => maxInFlight > 0 && requestsInFlight.admitted >= maxInFlight;
    if (maxInFlight > 0) {
      // Already full: shed before a body is read at all.
      app.addHook('onRequest', (request, reply, done) => {
        if (!full() || exempt(request)) return done();
        shed(request, reply, 'inFlight');
      });
      // Once the body has arrived (decision 0026), until the work is done (decision 0032).
      app.addHook('preHandler', (request, reply, done) => {
        if (exempt(request)) return done();
        if (full()) return shed(request, reply, 'inFlight');
        shedNoLonger();
        requestsInFlight.admit(request);
        // Two event-loop turns, so a client that has already closed is not worked on (decision 0012).
        const check = () => {
          const socket = request.raw.socket as { destroyed?: boolean; writableEnded?: boolean } | null;
          if (socket && (socket.destroyed === true || socket.writableEnded === true)) {
            metrics?.shed.inc({ reason: 'clientGone' });
            // The server may have ended the response with the connection.
            if (!reply.sent) reply.code(503).header('connection', 'close').send();
            requestsInFlight.done(request);
            return;
          }
          done();
        };
        setImmediate(() => setImmediate(check));
      });
    }

    await app.register(underPressure, {
      maxEventLoopDelay,
      maxHeapUsedBytes,
      sampleInterval: sampleIntervalMs,
      pressureHandler: (request, reply, type) => shed(request, reply, type),
    });
    app.decorate('mayShed', () => full() || app.isUnderPressure());

    const reportAfterMs = options.reportAfterMs ?? 10_000;
    app.readinessChecks.set('overload', async () => {
      const shedding = full() || (delayCounts && app.isUnderPressure());
      if (!shedding) sheddingSince = undefined;
      else if (sheddingSince !== undefined && Date.now() - sheddingSince >= reportAfterMs) {
        throw new Error(`every page and API request shed for ${Math.round((Date.now() - sheddingSince) / 1000)} s`);
      }
    });
  },
  { name: 'overload', dependencies: ['config', 'health', 'requests-in-flight'] },
);
