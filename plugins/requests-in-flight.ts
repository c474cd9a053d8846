import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Requests whose work is not done yet, counted even when their client has gone. */
    requestsInFlight(): number;
  }
}

/** A request's work, from onRequest until its handler is done. */
interface Work {
  /** The handler is running right now (its synchronous part). */
  calling: boolean;
  /** The handler returned a promise that has not settled yet. */
  pending: boolean;
  /** The answer has been sent (onSend ran). */
  answered: boolean;
  done: boolean;
  /** After the client left: the latest the request stops counting (a handler that never ends). */
  timer?: NodeJS.Timeout;
}

const wrapped = Symbol('requests-in-flight');

/**
 * Shutdown waits for the work of requests in flight before the database, Redis and mail close.
 *
 * Fastify's close() stops the listener and runs the plugins' onClose hooks (db.destroy(), …) once
 * no connection is left. A request whose client has gone (a timeout, a load generator stopping)
 * leaves no connection, but its handler goes on: it then met a destroyed database ("driver has
 * already been destroyed", an error log and half-done work). So every request counts from
 * onRequest until its handler is done — an async handler until its promise settles (when the
 * client is gone and it returns nothing, Fastify runs no onSend for it), any other until its
 * answer is sent (onSend) — and `preClose` stops the listener and waits until none is left,
 * for at most SHUTDOWN_TIMEOUT_MS; Fastify then waits for the connections and runs onClose.
 */
export default fp(
  async (app) => {
    const { config } = app;
    const works = new WeakMap<FastifyRequest, Work>();
    // Requests whose body was still arriving when they came in, with when they came in: only
    // these may need cutting at shutdown. (Kept apart from `works`: a reply in a WeakMap value
    // points back at its key, which made every collection of the map costly.)
    const uploads = new Map<FastifyReply, number>();
    let inFlight = 0;
    let idle: (() => void) | undefined;

    const finish = (work: Work) => {
      if (work.done) return;
      work.done = true;
      clearTimeout(work.timer);
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    };

    app.addHook('onRequest', (request, reply, done) => {
      const work: Work = { calling: false, pending: false, answered: false, done: false };
      works.set(request, work);
      inFlight += 1;
      const upload = !request.raw.complete;
      if (upload) uploads.set(reply, Date.now());
      // A client that leaves before the work is done: the request still counts, at most
      // REQUEST_TIMEOUT_MS longer (a handler that never ends must not hold every shutdown).
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
        // Answered by a hook, an error or a synchronous handler: the work is done. An async
        // handler that answered early still counts until its promise settles.
        if (!work.calling && !work.pending) finish(work);
      }
      done(null, payload);
    });

    // Each route's handler is watched: its promise settling is the end of its work.
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

    app.decorate('requestsInFlight', () => inFlight);

    app.addHook('preClose', async () => {
      // No new connections from here on (Fastify would stop listening only after this hook).
      if (app.server.listening) app.server.close();
      const timeoutMs = config.shutdownTimeoutMs;
      // Node stops cutting slow requests once its listener is closed: a body still arriving is cut
      // here, at its REQUEST_TIMEOUT_MS but within half the shutdown timeout, so a stalled upload
      // is answered 408 and cannot hold the shutdown.
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
