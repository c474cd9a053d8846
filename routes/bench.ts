import type { FastifyInstance } from 'fastify';
import { PageEntry } from '../lib/page-cache.ts';
import { storedBody } from '../plugins/page-cache.ts';

/** The paths the bench reads; nothing else answers them, and only under BENCH_BASELINE=1. */
const benchPaths = { baseline: '/__bench/baseline', process: '/__bench/process' } as const;

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * What `npm run bench` compares the pages with, registered with the pages (routes/index.ts)
 * only when BENCH_BASELINE=1, so the baseline goes through exactly the hooks a page does:
 *
 * - `GET /__bench/baseline`: a constant copy of the English home page's HTML (rendered once, on
 *   the first request, compressed once per encoding like a cached page), sent through every hook
 *   a page goes through: the floor of what serving a page can cost here.
 * - `GET /__bench/process`: this process's CPU time and memory, read by the bench before and
 *   after each route, so it reports server CPU per request rather than the load generator's.
 */
export default async function bench(app: FastifyInstance) {
  let home: Promise<PageEntry> | undefined;
  const homeHtml = () =>
    (home ??= app
      .inject({ url: '/', headers: { 'user-agent': browser, accept: 'text/html', 'accept-language': 'en' } })
      .then((response) => {
        if (response.statusCode !== 200) throw new Error(`the home page answered ${response.statusCode}`);
        // Stored like a cached page (identity, brotli and gzip made once): the floor of sending it.
        const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' };
        return new PageEntry({ body: Buffer.from(response.body), headers, generation: 'baseline' });
      }));

  app.get(benchPaths.baseline, { config: { auth: false } }, async (request, reply) => {
    const entry = await homeHtml().catch((error: unknown) => {
      home = undefined;
      throw error;
    });
    reply.headers({ ...entry.headers });
    return reply.send(await storedBody(request, reply, entry));
  });

  app.get(benchPaths.process, { config: { auth: false }, logLevel: 'warn' }, async (_request, reply) => {
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    reply.header('cache-control', 'no-store');
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
  });
}
