import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { wantsJson } from '../lib/accept.ts';
import { noticePages } from '../lib/notice-page.ts';
import { splitLocale } from '../contract/locales.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests being worked on, and whether the event-loop check counts yet (not until a sample after start). */
    overloadState(): { inFlight: number; watchingEventLoop: boolean };
  }
}

/** An admitted request's place under OVERLOAD_MAX_IN_FLIGHT. */
interface Slot {
  /** The handler has answered (onSend ran). */
  answered: boolean;
  /** The connection closed before the answer was out. */
  clientGone: boolean;
  /** Gives the place back (once). */
  release: () => void;
}

/** What a shed request is told to wait before trying again. */
const overloadRetryAfterSeconds = 5;

/** How often under-pressure measures the loop and the heap: a burst is noticed (and over) quickly. */
const sampleIntervalMs = 500;

/** Cheap answers that keep coming under overload: probes, and files the pages already point at. */
const exemptRoute = /^\/(?:healthz|readyz)$|^\/(?:assets|builds)\//;
/** Decided on the route the request matched (the pages' catch-all also takes `/assets/unknown`). */
const exempt = (request: FastifyRequest) => exemptRoute.test(request.routeOptions.url ?? '');

/**
 * Overload shedding: when the event loop's delay or the heap passes its limit (@fastify/under-
 * pressure: OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, OVERLOAD_MAX_HEAP_BYTES), or too many requests are
 * being worked on at once (OVERLOAD_MAX_IN_FLIGHT; 0 turns any of them off), pages and the API
 * answer 503 with Retry-After at once (a translated page for documents, JSON otherwise) instead of
 * queueing until clients time out. Health probes, hashed assets and build manifests are still
 * served; the metrics listener is not behind this at all.
 *
 * The in-flight cap is what bounds the wait of the requests that are served: Node works on all
 * admitted requests in turn, so each waits about (requests in flight) x (CPU time of one); the
 * loop-delay check alone reacts a sample late and lets a burst of hundreds in first.
 */
export interface OverloadPluginOptions {
  /** How long shedding everything lasts before /readyz fails (default 10 s; tests shorten it). */
  reportAfterMs?: number;
}

export default fp<OverloadPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const maxEventLoopDelay = config.overloadMaxEventLoopDelayMs;
    // Default: shed before V8 runs out of heap (a crash loses every request in flight).
    const maxHeapUsedBytes = config.overloadMaxHeapBytes ?? Math.floor(getHeapStatistics().heap_size_limit * 0.9);
    const pages = noticePages('overload');
    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    const busyJson = JSON.stringify({
      statusCode: 503,
      code: 'OVERLOADED',
      message: `The service is busy. Try again in ${overloadRetryAfterSeconds} seconds.`,
    });

    // The first sample after start measures the start itself (compiling, opening the database):
    // the loop's delay counts only from the first sample taken once the app is ready.
    let delayCounts = false;
    app.addHook('onReady', async () => {
      setTimeout(() => {
        delayCounts = true;
      }, sampleIntervalMs + 100).unref();
    });

    // Shedding everything: since the first request shed after the last one admitted. /readyz
    // fails while it has lasted `reportAfterMs` and no request could be admitted now, so a
    // replica held full (stalled clients, a stuck dependency) leaves the load balancer.
    let sheddingSince: number | undefined;
    const admitted = () => {
      sheddingSince = undefined;
    };

    /** Answers 503 (or, for an exempt request, nothing: it is then served as usual). */
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

    // Requests being worked on (pages, API): beyond the cap, new ones are shed at once, so the
    // ones admitted wait for at most a bounded queue inside the process.
    const maxInFlight = config.overloadMaxInFlight;
    let inFlight = 0;
    if (maxInFlight > 0) {
      const slots = new WeakMap<FastifyRequest, Slot>();
      // Already full: shed before a body is read at all.
      app.addHook('onRequest', (request, reply, done) => {
        if (inFlight < maxInFlight || exempt(request)) return done();
        shed(request, reply, 'inFlight');
      });
      // A request takes its place once its body has arrived: a client that stalls its upload
      // holds a connection (bounded per address, cut by REQUEST_TIMEOUT_MS), never a place.
      app.addHook('preHandler', (request, reply, done) => {
        if (exempt(request)) return done();
        if (inFlight >= maxInFlight) return shed(request, reply, 'inFlight');
        admitted();
        inFlight += 1;
        const slot: Slot = { answered: false, clientGone: false, release: () => {} };
        let timer: NodeJS.Timeout | undefined;
        slot.release = () => {
          slot.release = () => {};
          clearTimeout(timer);
          inFlight -= 1;
        };
        slots.set(request, slot);
        // A request counts until its work is done. Usually the answer has gone out by its 'close'.
        // A client that gives up (a timeout, a reload) closes first while the handler goes on
        // rendering: such a request keeps its place until its handler answers (onSend), or at
        // the latest REQUEST_TIMEOUT_MS later (a handler that never answers), so clients that
        // time out and retry cannot pile up unbounded work behind the cap.
        reply.raw.once('close', () => {
          if (slot.answered || reply.raw.writableFinished) return slot.release();
          slot.clientGone = true;
          timer = setTimeout(() => slot.release(), config.requestTimeoutMs).unref();
        });
        // Before the work starts, two turns of the event loop: they read what else has arrived
        // (new requests are admitted or shed at once, instead of waiting in the kernel behind a
        // chain of renders) and see a client that has already closed its connection. Such a
        // request is not worked on: under overload most waiting requests are from clients that
        // gave up. (Two turns: a partial read ends libuv's read loop, so a close that came right
        // after the request is read on the next poll; the second turn comes after it.)
        const check = () => {
          const socket = request.raw.socket as { destroyed?: boolean; writableEnded?: boolean } | null;
          if (socket && (socket.destroyed === true || socket.writableEnded === true)) {
            metrics?.shed.inc({ reason: 'clientGone' });
            // The server may have ended the response with the connection: nothing to send then.
            if (reply.sent) slots.get(request)?.release();
            else reply.code(503).header('connection', 'close').send();
            return;
          }
          done();
        };
        setImmediate(() => setImmediate(check));
      });
      app.addHook('onSend', (request, _reply, payload, done) => {
        const slot = slots.get(request);
        if (slot) {
          slot.answered = true;
          if (slot.clientGone) slot.release();
        }
        done(null, payload);
      });
    }

    app.decorate('overloadState', () => ({ inFlight, watchingEventLoop: delayCounts && maxEventLoopDelay > 0 }));
    if (metrics) {
      new Gauge({
        name: 'http_requests_in_flight',
        help: 'Pages and API requests being worked on (OVERLOAD_MAX_IN_FLIGHT caps it).',
        registers: [metrics.registry],
        collect() {
          this.set(inFlight);
        },
      });
    }

    await app.register(underPressure, {
      maxEventLoopDelay,
      maxHeapUsedBytes,
      sampleInterval: sampleIntervalMs,
      pressureHandler: (request, reply, type) => shed(request, reply, type),
    });

    const reportAfterMs = options.reportAfterMs ?? 10_000;
    app.readinessChecks.set('overload', async () => {
      const full = (maxInFlight > 0 && inFlight >= maxInFlight) || (delayCounts && app.isUnderPressure());
      if (!full) sheddingSince = undefined;
      else if (sheddingSince !== undefined && Date.now() - sheddingSince >= reportAfterMs) {
        throw new Error(`every page and API request shed for ${Math.round((Date.now() - sheddingSince) / 1000)} s`);
      }
    });
    if (maxEventLoopDelay > 0 || maxHeapUsedBytes > 0) {
      app.log.debug({ maxEventLoopDelay, maxHeapUsedBytes }, 'overload shedding on');
    }
  },
  { name: 'overload', dependencies: ['config', 'health'] },
);
