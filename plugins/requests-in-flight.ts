import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';

/** The one count of requests in flight: shutdown drains it, the overload cap reads its `admitted` part. */
export interface RequestsInFlight {
  /** Requests whose work is not done yet, from onRequest on, counted even when their client has gone. */
  readonly count: number;
  /** Those of them holding a place under OVERLOAD_MAX_IN_FLIGHT (plugins/overload.ts). */
  readonly admitted: number;
  /** Gives the request a place until its work is done. */
  admit(request: FastifyRequest): void;
  /** Its work is over without a handler (its client went before the handler ran). */
  done(request: FastifyRequest): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    requestsInFlight: RequestsInFlight;
  }
}

/** A request's work, from onRequest until its handler is done. */
interface Work {
  /** The handler's synchronous part is running. */
  calling: boolean;
  /** The handler's promise has not settled yet. */
  pending: boolean;
  answered: boolean;
  admitted: boolean;
  done: boolean;
  timer?: NodeJS.Timeout;
}

const wrapped = Symbol('requests-in-flight');

/**
 * A request counts from onRequest until its handler is done, client gone or not, so onClose never
 * closes the database under a handler (decisions 0026, 0032).
 */
export default fp(
  async (app) => {
    const { config } = app;
    const works = new WeakMap<FastifyRequest, Work>();
    // Bodies still arriving at onRequest, which shutdown may cut. Not in `works`: a reply in a
    // WeakMap value points back at its key, which makes every collection of the map costly.
    const uploads = new Map<FastifyReply, number>();
    let inFlight = 0;
    let admitted = 0;
    let idle: (() => void) | undefined;

    const finish = (work: Work) => {
      if (work.done) return;
      work.done = true;
      clearTimeout(work.timer);
      inFlight -= 1;
      if (work.admitted) admitted -= 1;
      if (inFlight === 0) idle?.();
    };

    app.addHook('onRequest', (request, reply, done) => {
      const work: Work = { calling: false, pending: false, answered: false, admitted: false, done: false };
      works.set(request, work);
      inFlight += 1;
      const upload = !request.raw.complete;
      if (upload) uploads.set(reply, Date.now());
      // A handler that never ends holds nothing longer than REQUEST_TIMEOUT_MS after its client left.
      reply.raw.once('close', () => {
        if (upload) uploads.delete(reply);
        if (!work.done) work.timer = setTimeout(() => finish(work), config.requestTimeoutMs).unref();
      });
      done();
    });

    app.addHook('onSend', (request, _reply, payload, done) => {
      const work = works.get(request);
      if (work) {
        work.answered = true;
        // An async handler counts until its promise settles: without a client it gets no onSend.
        if (!work.calling && !work.pending) finish(work);
      }
      done(null, payload);
    });

    app.addHook('onRoute', (route) => {
      const handler = route.handler as RouteHandlerMethod & { [wrapped]?: true };
      if (handler[wrapped]) return;
      const watched = function (this: unknown, request: FastifyRequest, reply: unknown) {
        const work = works.get(request);
        if (!work) return handler.call(this as never, request, reply as never);
        work.calling = true;
        let result: unknown;
        try {
          result = handler.call(this as never, request, reply as never);
        } finally {
          work.calling = false;
        }
        if (result !== null && typeof (result as Promise<unknown> | undefined)?.then === 'function') {
          work.pending = true;
          const settled = () => {
            work.pending = false;
            finish(work);
          };
          (result as Promise<unknown>).then(settled, settled);
        } else if (work.answered) {
          finish(work);
        }
        return result;
      } as RouteHandlerMethod & { [wrapped]?: true };
      watched[wrapped] = true;
      route.handler = watched;
    });

    const counter: RequestsInFlight = {
      get count() {
        return inFlight;
      },
      get admitted() {
        return admitted;
      },
      admit(request) {
        const work = works.get(request);
        if (!work || work.done || work.admitted) return;
        work.admitted = true;
        admitted += 1;
      },
      done(request) {
        const work = works.get(request);
        if (work) finish(work);
      },
    };
    app.decorate('requestsInFlight', counter);

    const metrics = app.hasDecorator('metrics') ? app.metrics : undefined;
    if (metrics) {
      new Gauge({
        name: 'http_requests_in_flight',
        help: 'Pages and API requests being worked on (OVERLOAD_MAX_IN_FLIGHT caps it).',
        registers: [metrics.registry],
        collect() {
          this.set(admitted);
        },
      });
      new Gauge({
        name: 'http_requests_unfinished',
        help: 'Requests whose work is not done, bodies still arriving and clients gone included: what a shutdown waits for.',
        registers: [metrics.registry],
        collect() {
          this.set(inFlight);
        },
      });
    }

    app.addHook('preClose', async () => {
      // Fastify would stop listening only after this hook.
      if (app.server.listening) app.server.close();
      const timeoutMs = config.shutdownTimeoutMs;
      // Node stops cutting slow requests once its listener is closed: a stalled upload is
      // answered 408 here, within half the shutdown timeout (decision 0026).
      const latest = Date.now() + timeoutMs / 2;
      for (const [reply, startedAt] of uploads) {
        const cut = setTimeout(
          () => {
            if (reply.request.raw.complete || reply.sent) return;
            reply
              .code(408)
              .header('connection', 'close')
              .send({ statusCode: 408, code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time.' });
          },
          Math.max(0, Math.min(startedAt + config.requestTimeoutMs, latest) - Date.now()),
        );
        cut.unref();
      }
      if (inFlight === 0) return;
      app.log.info({ requestsInFlight: inFlight }, 'waiting for the requests in flight before closing');
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        new Promise<true>((resolve) => {
          idle = () => resolve(true);
        }),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      idle = undefined;
      if (!finished)
        app.log.warn(
          { requestsInFlight: inFlight, timeoutMs },
          'requests still in flight after SHUTDOWN_TIMEOUT_MS; closing anyway',
        );
    });
  },
  { name: 'requests-in-flight', dependencies: ['config'] },
);
