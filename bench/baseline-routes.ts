import type { FastifyInstance } from 'fastify';
import { PageEntry } from '../lib/page-cache.ts';
import { storedBody } from '../lib/page-cache-answer.ts';

/** The paths the bench reads; only the server the bench starts answers them (bench/app.ts). */
const benchPaths = {
  baseline: '/__bench/baseline',
  reactFloor: '/__bench/react-floor',
  process: '/__bench/process',
} as const;

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * What `npm run bench` compares the pages with (docs/benchmark.md, decision 0021), registered at
 * the root after the pages, so the baseline goes through exactly the hooks a page does.
 * `/__bench/process` lets the bench report server CPU per request rather than the load generator's.
 */
export default async function bench(app: FastifyInstance) {
  const pageHtml = async (url: string) => {
    const response = await app.inject({
      url,
      headers: { 'user-agent': browser, accept: 'text/html', 'accept-language': 'en' },
    });
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    return response.body;
  };
  const htmlHeaders = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };

  let home: Promise<PageEntry> | undefined;
  // Stored like a cached page (identity, brotli and gzip made once): the floor of sending it.
  const homeHtml = () =>
    (home ??= pageHtml('/').then(
      (html) => new PageEntry({ body: html, headers: htmlHeaders, generation: 'baseline' }),
    ));

  // One floor per page the bench asks for (a handful), made on its first request.
  const floors = new Map<string, Promise<() => string>>();
  const floorOf = (path: string) => {
    let floor = floors.get(path);
    if (!floor) {
      floor = import('./react-floor.ts').then(async ({ reactFloor }) => reactFloor(await pageHtml(path)));
      floor.catch(() => floors.delete(path));
      floors.set(path, floor);
    }
    return floor;
  };

  app.get(benchPaths.baseline, { config: { auth: false } }, async (request, reply) => {
    const entry = await homeHtml().catch((error: unknown) => {
      home = undefined;
      throw error;
    });
    reply.headers({ ...entry.headers });
    return reply.send(await storedBody(request, reply, entry));
  });

  app.get<{ Querystring: { path: string } }>(
    benchPaths.reactFloor,
    {
      config: { auth: false },
      schema: {
        querystring: {
          type: 'object',
          properties: { path: { type: 'string', pattern: '^/[^?#]*$', maxLength: 200, default: '/' } },
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      if (!floors.has(request.query.path) && floors.size >= 16)
        return reply.code(400).send({ code: 'BENCH_FLOOR_LIMIT', message: 'At most 16 pages have a React floor.' });
      const render = await floorOf(request.query.path).catch((error: Error) => error);
      if (render instanceof Error)
        return reply
          .code(400)
          .send({ code: 'BENCH_FLOOR_PAGE', message: `No React floor for that page: ${render.message}.` });
      reply.headers(htmlHeaders);
      return reply.send(render());
    },
  );

  app.get(benchPaths.process, { config: { auth: false }, logLevel: 'warn' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return processFigures();
  });
}

/** This process's CPU and memory; the bare Fastify server answers them too (bench/bare-server.ts). */
export function processFigures() {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return {
    pid: process.pid,
    uptimeSeconds: process.uptime(),
    cpuMicros: { user: cpu.user, system: cpu.system },
    memoryBytes: {
      rss: memory.rss,
      heapTotal: memory.heapTotal,
      heapUsed: memory.heapUsed,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
    },
  };
}
