// `--bare <page>`: beside the real server, a bare Fastify server (bench/bare-server.ts) answering
// the bytes and headers of that page's cache hit as a constant, so a hit's CPU per request is
// compared with Fastify's own floor for the same answer, in the same run (docs/benchmark.md).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';
import { runtimeFlags, withRuntimeEnv } from '../lib/runtime-env.ts';
import { freePort } from './local-server.ts';
import { processPath } from './routes.ts';

/** One answer of the real server, as the bare server repeats it. */
export interface CapturedAnswer {
  path: string;
  status: number;
  /** As sent, but those Node and Fastify write themselves (Date, Connection, Content-Length ...). */
  headers: Record<string, string | string[]>;
  /** Base64 of the bytes on the wire (compressed as the load asks). */
  body: string;
  /** The real server's X-Cache: HIT unless the page cache is off or keeps nothing for this page. */
  cache: string | undefined;
}

/** Written per response by Node or Fastify, whatever the route sets. */
const transportHeaders = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

function fetchRaw(url: string, headers: Record<string, string>): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const kept: Record<string, string | string[]> = {};
        const raw = response.rawHeaders;
        for (let index = 0; index < raw.length; index += 2) {
          const name = raw[index]!;
          if (transportHeaders.has(name.toLowerCase())) continue;
          const previous = kept[name];
          kept[name] = previous === undefined ? raw[index + 1]! : [previous, raw[index + 1]!].flat();
        }
        const cache = response.headers['x-cache'];
        resolve({
          path: new URL(url).pathname,
          status: response.statusCode ?? 0,
          headers: kept,
          body: Buffer.concat(chunks).toString('base64'),
          cache: typeof cache === 'string' ? cache : undefined,
        });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The page's answer once the cache holds it (the first request may fill it). */
export async function captureHit(base: string, path: string, headers: Record<string, string>) {
  let answer = await fetchRaw(base + path, headers);
  for (let attempt = 0; attempt < 3 && answer.cache !== 'HIT'; attempt += 1) {
    await new Promise((wait) => setTimeout(wait, 50));
    answer = await fetchRaw(base + path, headers);
  }
  return answer;
}

export interface BareServer {
  base: string;
  stop: () => Promise<void>;
}

/**
 * The bare server, with the real server's Node flags, memory settings and log level. `react`: it
 * renders the captured (uncompressed) page's markup with React per request instead (bench/react-floor.ts).
 */
export async function startBareServer(
  root: string,
  answer: CapturedAnswer,
  nodeArgs: string[] = [],
  { react = false } = {},
): Promise<BareServer> {
  const port = await freePort();
  const folder = mkdtempSync(join(os.tmpdir(), 'asdas-bench-bare-'));
  const answerFile = join(folder, 'answer.json');
  writeFileSync(answerFile, JSON.stringify(answer));
  const child = spawn(
    process.execPath,
    [...runtimeFlags, ...nodeArgs, '--import', 'tsx', join(root, 'bench/bare-server.ts')],
    {
      cwd: root,
      env: {
        ...withRuntimeEnv(process.env),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        BENCH_BARE_ANSWER: answerFile,
        ...(react ? { BENCH_BARE_REACT: '1' } : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(base + processPath)).ok) return { base, stop };
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  await stop();
  throw new Error('The bare Fastify server did not start');
}
