import { subscribe } from 'node:diagnostics_channel';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';
import { closeWhenQuiet } from '../../lib/quiet-listener.ts';

/** The one count of requests in flight: shutdown drains it, the overload cap reads its `admitted` part. */
export class RequestsInFlight {
  /** Requests whose work is not done yet, from onRequest on, counted even when their client has gone. */
  count = 0;
  /** Those of them holding a place under OVERLOAD_MAX_IN_FLIGHT (plugins/external/overload.ts). */
  admitted = 0;
  idle?: () => void;
  admit({ work }: FastifyRequest) {
    if (!work || work.done || work.admitted) return;
    work.admitted = true;
    this.admitted += 1;
  }
  done({ work }: FastifyRequest) {
    if (!work || work.done) return;
    work.done = true;
    clearTimeout(work.timer);
    this.count -= 1;
    if (work.admitted) this.admitted -= 1;
    if (this.count === 0) this.idle?.();
  }
}

interface Work {
  of: RequestsInFlight;
  /** The handler's synchronous part, or its promise, is not done. */
  running: boolean;
  admitted: boolean;
  done: boolean;
  timer?: NodeJS.Timeout;
}

declare module 'fastify' {
  interface FastifyInstance {
    requestsInFlight: RequestsInFlight;
  }
  interface FastifyRequest {
    work: Work | null;
  }
}

// Fastify says when a handler starts and when it, or its promise, is done (decision 0052).
const on = (event: string, listener: (store: { request: FastifyRequest; async: boolean }) => unknown) =>
  subscribe(`tracing:fastify.request.handler:${event}`, (store) => void listener(store as never));
on('start', ({ request }) => request.work && (request.work.running = true));
on('end', ({ request, async }) => !async && request.work && (request.work.running = false));
on('asyncEnd', ({ request }) => request.work?.of.done(request));

/** So onClose never closes the database under a handler whose client has gone (decisions 0026, 0032). */
export default fp(
  async (app) => {
    const { config } = app;
    const count = new RequestsInFlight();
    app.decorate('requestsInFlight', count);
    app.decorateRequest('work', null);

    app.addHook('onRequest', (request, reply, done) => {
      const work: Work = { of: count, running: false, admitted: false, done: false };
      request.work = work;
      count.count += 1;
      reply.raw.once('close', () => {
        // Answered, or its body never came: no handler runs now. Else it holds REQUEST_TIMEOUT_MS at most.
        if (!work.running && (reply.sent || !request.raw.complete)) count.done(request);
        else if (!work.done) work.timer = setTimeout(() => count.done(request), config.requestTimeoutMs).unref();
      });
      done();
    });

    if (app.hasDecorator('metrics')) {
      const { registry } = app.metrics;
      const gauge = (name: string, help: string, value: () => number) =>
        new Gauge({
          name,
          help,
          registers: [registry],
          collect() {
            this.set(value());
          },
        });
      gauge('http_requests_in_flight', 'Requests holding an OVERLOAD_MAX_IN_FLIGHT place.', () => count.admitted);
      gauge('http_requests_unfinished', 'Requests whose work is not done: what shutdown waits for.', () => count.count);
    }

    app.addHook('preClose', async () => {
      // Fastify would stop listening only after this hook; at once, and Node keeps cutting stalled requests.
      if (app.server.listening) await closeWhenQuiet(app.server, 0, 0);
      const timeoutMs = config.shutdownTimeoutMs;
      // Node takes the larger of the two as the request's: a stalled upload is cut within half the timeout.
      for (const limit of ['headersTimeout', 'requestTimeout'] as const)
        app.server[limit] = Math.min(app.server[limit] || Infinity, timeoutMs / 2);
      if (count.count === 0) return;
      app.log.info({ requestsInFlight: count.count }, 'waiting for the requests in flight before closing');
      let timer: NodeJS.Timeout | undefined;
      const finished = await new Promise<boolean>((resolve) => {
        count.idle = () => resolve(true);
        timer = setTimeout(resolve, timeoutMs, false);
      });
      clearTimeout(timer);
      if (!finished)
        app.log.warn(
          { requestsInFlight: count.count, timeoutMs },
          'requests still in flight after SHUTDOWN_TIMEOUT_MS; closing anyway',
        );
    });
  },
  { name: 'requests-in-flight', dependencies: ['config'] },
);
