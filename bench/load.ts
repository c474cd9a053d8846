import autocannon from 'autocannon';
import { processPath, type BenchRequest } from './routes.ts';

export interface ProcessFigures {
  cpuMicros: { user: number; system: number };
  memoryBytes: { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
}

/** The server's own CPU and memory (the bench's routes), or undefined when it does not say. */
export async function readProcess(base: string): Promise<ProcessFigures | undefined> {
  try {
    const response = await fetch(base + processPath, { headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.arrayBuffer();
      return undefined;
    }
    return (await response.json()) as ProcessFigures;
  } catch {
    return undefined;
  }
}

export interface LoadResult {
  name: string;
  path: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; average: number; max: number };
  /** Bytes on the wire per response, headers included (as autocannon counts them). */
  bytesPerResponse: number;
  requests: number;
  expectedStatus: number;
  unexpectedStatus: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Server CPU (user + system) per request, from the server process; undefined when it does not say. */
  cpuMsPerRequest?: number;
  /** The server's resident memory after the run. */
  rssMiB?: number;
  ratioToBaseline?: number;
  cpuToBaseline?: number;
  /** For a floor row, the page row it renders; for that page, its CPU over its floor's. */
  floorOf?: string;
  cpuToFloor?: number;
  /** For the bare Fastify row (--bare), the page row whose cache hit it repeats; for that page, its CPU over the bare one's. */
  bareOf?: string;
  cpuToBare?: number;
}

export interface LoadSpec {
  name: string;
  base: string;
  /** One request repeated, or a sequence each connection walks through in order. */
  requests: BenchRequest[];
  connections: number;
  duration: number;
  warmup: number;
  expectedStatus: number;
  encoding: string;
  token: string;
  /** Per-connection request hooks (the account scenario logs in and keeps the token). */
  hooks?: Partial<Record<number, Pick<autocannon.Request, 'setupRequest' | 'onResponse'>>>;
  /** Called every second with the figures so far (progress on the terminal, RSS polls). */
  onTick?: (elapsedSeconds: number, requestsSoFar: number) => void;
}

function headersFor(request: BenchRequest, spec: Pick<LoadSpec, 'encoding' | 'token'>): Record<string, string> {
  return {
    ...request.headers,
    ...(spec.encoding ? { 'accept-encoding': spec.encoding } : {}),
    ...(request.authenticated ? { authorization: `Bearer ${spec.token}` } : {}),
  };
}

function cannon(
  options: autocannon.Options,
  onTick?: (elapsed: number, count: number) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    let elapsed = 0;
    let count = 0;
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    (instance as unknown as NodeJS.EventEmitter).on('tick', (tick: { counter: number }) => {
      elapsed += 1;
      count += tick.counter;
      onTick?.(elapsed, count);
    });
  });
}

/** Loads one route (or one sequence) with autocannon: warm-up first, then the measured run. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const [first] = spec.requests;
  if (!first) throw new Error(`${spec.name}: no request to send`);
  const requests = spec.requests.map((request, index) => ({
    path: request.path,
    method: request.method ?? 'GET',
    headers: headersFor(request, spec),
    ...(request.body ? { body: request.body } : {}),
    ...spec.hooks?.[index],
  }));
  const options: autocannon.Options = {
    url: spec.base,
    connections: spec.connections,
    requests,
  };
  // The first seconds fill caches and let V8 optimise; their figures are thrown away.
  if (spec.warmup > 0) await cannon({ ...options, duration: spec.warmup });
  const before = await readProcess(spec.base);
  const result = await cannon({ ...options, duration: spec.duration }, spec.onTick);
  const after = await readProcess(spec.base);

  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  const total = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  const answered = total || result.requests.total;
  return {
    name: spec.name,
    path: spec.requests.length === 1 ? first.path : spec.requests.map((request) => request.path).join(' → '),
    requestsPerSecond: result.requests.average,
    latencyMs: {
      p50: result.latency.p50,
      p99: result.latency.p99,
      average: result.latency.average,
      max: result.latency.max,
    },
    bytesPerResponse: answered > 0 ? result.throughput.total / answered : 0,
    requests: answered,
    expectedStatus: spec.expectedStatus,
    unexpectedStatus:
      spec.requests.length === 1
        ? total - (statusCodes[String(spec.expectedStatus)] ?? 0)
        : total - countOk(statusCodes),
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    ...(before && after && answered > 0
      ? {
          cpuMsPerRequest:
            (after.cpuMicros.user + after.cpuMicros.system - before.cpuMicros.user - before.cpuMicros.system) /
            1000 /
            answered,
          rssMiB: after.memoryBytes.rss / 1048576,
        }
      : {}),
  };
}

function countOk(statusCodes: Record<string, number>): number {
  return Object.entries(statusCodes).reduce((sum, [code, count]) => (/^2/.test(code) ? sum + count : sum), 0);
}

/** A progress line that rewrites itself on a terminal and prints every 5 s otherwise. */
export function progress(label: string, duration: number): (elapsed: number, count: number) => void {
  const tty = process.stdout.isTTY;
  return (elapsed, count) => {
    const line = `  ${label}: ${elapsed}/${duration} s, ${Math.round(count / elapsed)} req/s`;
    if (tty) process.stdout.write(`\r${line}\u001b[K`);
    else if (elapsed % 5 === 0) console.log(line);
  };
}
