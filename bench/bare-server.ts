// `npm run bench -- --bare <page>`: a bare Fastify server, started by bench/bare.ts beside the real
// one, whose one route answers the bytes and headers the real server sent for a cache hit of that
// page, captured once at start: what sending those bytes costs Fastify with none of the site's
// hooks. Same fastify, same logger at the same level, same Node flags; no plugin, no hook.
// BENCH_BARE_REACT=1 (the render scenario): the page's markup is rendered by React per request.
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { createLogger } from '../lib/logger.ts';
import type { CapturedAnswer } from './bare.ts';
import { processFigures } from './baseline-routes.ts';
import { reactFloor } from './react-floor.ts';

const captured = JSON.parse(readFileSync(process.env.BENCH_BARE_ANSWER!, 'utf8')) as CapturedAnswer;
const body = Buffer.from(captured.body, 'base64');
const { headers } = captured;
const render = process.env.BENCH_BARE_REACT === '1' ? reactFloor(body.toString('utf8')) : undefined;

const app = Fastify({
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- as in app.ts
  loggerInstance: createLogger(process.env.LOG_LEVEL ?? 'warn') as FastifyBaseLogger,
});
app.get(captured.path, (_request, reply) => {
  reply
    .code(captured.status)
    .headers(headers)
    .send(render ? render() : body);
});
// What the bench reads the CPU per request from, as on the real server (bench/baseline-routes.ts).
app.get('/__bench/process', { logLevel: 'warn' }, async () => processFigures());

await app.listen({ host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT) });
// A normal exit, so a profile (node --cpu-prof) is written.
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
