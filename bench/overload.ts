// `npm run bench -- --scenario overload`: many connections (300 unless --connections says) on
// pages that are rendered for every request (a logged-in reader's: never from the page cache),
// once with overload shedding as configured and, on the local server, once with it off. It
// reports what the clients saw: the latency of the answers that were served (200) apart from the
// 503s, how many were shed, and socket errors and timeouts.
import autocannon from 'autocannon';
import { article, pageHeaders, type BenchRequest } from './routes.ts';

/** Uncached documents: the cookie makes them personal pages, rendered every time. */
function overloadSteps(token: string): BenchRequest[] {
  const headers = { ...pageHeaders, cookie: `token=${token}` };
  return [
    { path: article, headers },
    { path: '/', headers },
    { path: `/th${article}`, headers },
    { path: '/asdas', headers },
    { path: '/author/nicha-srisuk', headers },
    { path: '/th/asdas', headers },
  ];
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface OverloadResult {
  name: string;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  statusCodes: Record<string, number>;
  /** Answers with 2xx: what the visitors who were served waited. */
  served: LatencySummary;
  /** 503 answers: how fast "not now" came. */
  shed: LatencySummary;
  /** Connection errors (reset, refused) and requests with no answer within autocannon's 10 s. */
  socketErrors: number;
  timeouts: number;
}

function summarise(values: number[]): LatencySummary {
  if (values.length === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1)! };
}

/** One measured run (after a warm-up): latencies split by status, from autocannon's `response` events. */
export async function overloadRun(options: {
  name: string;
  base: string;
  token: string;
  connections: number;
  duration: number;
  warmup: number;
  encoding: string;
}): Promise<OverloadResult> {
  const requests = overloadSteps(options.token).map((request) => ({
    path: request.path,
    method: 'GET' as const,
    headers: { ...request.headers, ...(options.encoding ? { 'accept-encoding': options.encoding } : {}) },
  }));
  const base = { url: options.base, connections: options.connections, requests };
  if (options.warmup > 0) await autocannon({ ...base, duration: options.warmup });
  const served: number[] = [];
  const shed: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ ...base, duration: options.duration }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    (instance as unknown as NodeJS.EventEmitter).on(
      'response',
      (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status >= 200 && status < 300) served.push(ms);
        else if (status === 503) shed.push(ms);
      },
    );
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  return {
    name: options.name,
    connections: options.connections,
    seconds: options.duration,
    requestsPerSecond: result.requests.average,
    statusCodes,
    served: summarise(served),
    shed: summarise(shed),
    socketErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
  };
}

export function overloadTable(results: OverloadResult[]): string {
  const ms = (value: number) => `${Math.round(value)}`;
  const rows = [
    ['run', 'req/s', '200s', 'served p50', 'p90', 'p99', 'max ms', '503s', '503 p99 ms', 'socket errors', 'timeouts'],
    ...results.map((r) => [
      r.name,
      String(Math.round(r.requestsPerSecond)),
      String(r.served.count),
      ms(r.served.p50),
      ms(r.served.p90),
      ms(r.served.p99),
      ms(r.served.max),
      String(r.shed.count),
      r.shed.count ? ms(r.shed.p99) : '',
      String(r.socketErrors),
      String(r.timeouts),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row, index) => {
      const line = row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  ');
      return index === 0 ? `${line}\n${'-'.repeat(line.length)}` : line;
    })
    .join('\n');
}
