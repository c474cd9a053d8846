import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a fast API answer to a request queued behind an overload. */
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const queryBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface Metrics {
  /** The registry the listener serves; other plugins add their own metrics to it. */
  readonly registry: Registry;
  readonly ssrRender: Histogram<'kind' | 'page'>;
  readonly dbQuery: Histogram<'backend' | 'outcome'>;
  readonly rateLimitRefusals: Counter<'limit'>;
  readonly pageCache: Counter<'result'>;
  readonly shed: Counter<'reason'>;
  /** Names a request's route when the router's pattern says little (`/*`). */
  labelRoute(request: FastifyRequest, route: string): void;
  /** The label given by `labelRoute`, if any (the page cache repeats it on its hits). */
  routeLabelOf(request: FastifyRequest): string | undefined;
  /** Serves `GET /metrics` on its own listener (server.ts, METRICS_PORT); closed with the app. */
  listen(host: string, port: number): Promise<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const statusClasses = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const statusClass = (status: number) => statusClasses[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;

const routeLabel = Symbol('metrics route');
type Labelled = FastifyRequest & { [routeLabel]?: string };

/** Labelled by route pattern, never the raw URL; served on METRICS_PORT only (decision 0012). */
export default fp(
  async (app) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });

    let lastUtilization: EventLoopUtilization = performance.eventLoopUtilization();
    new Gauge({
      name: 'nodejs_eventloop_utilization',
      help: 'Share of time the event loop was busy since the previous scrape (0 to 1).',
      registers: [registry],
      collect() {
        const now = performance.eventLoopUtilization();
        this.set(performance.eventLoopUtilization(now, lastUtilization).utilization);
        lastUtilization = now;
      },
    });

    const labels = ['route', 'method', 'status_class'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered.',
      labelNames: labels,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its answer.',
      labelNames: labels,
      buckets: latencyBuckets,
      registers: [registry],
    });

    const metrics: Metrics = {
      registry,
      ssrRender: new Histogram({
        name: 'ssr_render_duration_seconds',
        help: 'Server rendering of a page (data and React), or of its _payload.json.',
        labelNames: ['kind', 'page'],
        buckets: latencyBuckets,
        registers: [registry],
      }),
      dbQuery: new Histogram({
        name: 'db_query_duration_seconds',
        help: 'Database queries, from sending to the result.',
        labelNames: ['backend', 'outcome'],
        buckets: queryBuckets,
        registers: [registry],
      }),
      rateLimitRefusals: new Counter({
        name: 'rate_limit_refusals_total',
        help: 'Requests refused by a rate limit (429).',
        labelNames: ['limit'],
        registers: [registry],
      }),
      pageCache: new Counter({
        name: 'page_cache_requests_total',
        help: 'Page and payload requests from anonymous visitors: served from the page cache (hit) or rendered (miss).',
        labelNames: ['result'],
        registers: [registry],
      }),
      shed: new Counter({
        name: 'http_requests_shed_total',
        help: 'Requests answered 503 because the process was overloaded.',
        labelNames: ['reason'],
        registers: [registry],
      }),
      labelRoute(request, route) {
        (request as Labelled)[routeLabel] = route;
      },
      routeLabelOf(request) {
        return (request as Labelled)[routeLabel];
      },
      async listen(host, port) {
        const server = createServer((request, response) => {
          const path = request.url?.split('?')[0];
          if ((request.method !== 'GET' && request.method !== 'HEAD') || path !== '/metrics') {
            response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
            return;
          }
          registry.metrics().then(
            (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
            (error: unknown) => {
              app.log.warn({ err: error }, 'metrics collection failed');
              response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
            },
          );
        });
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => resolve());
        });
        servers.push(server);
        const address = server.address() as AddressInfo;
        const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`;
        app.log.info({ url }, 'metrics listening');
        return url;
      },
    };
    const servers: Server[] = [];
    app.addHook('onClose', async () => {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      registry.clear();
    });

    // Synchronous: it runs for every request, page-cache hits included.
    app.addHook('onResponse', (request, reply, done) => {
      const route = (request as Labelled)[routeLabel] ?? request.routeOptions.url ?? 'unmatched';
      const values = { route, method: request.method, status_class: statusClass(reply.statusCode) };
      requests.inc(values);
      duration.observe(values, reply.elapsedTime / 1000);
      done();
    });

    app.decorate('metrics', metrics);
  },
  { name: 'metrics' },
);
