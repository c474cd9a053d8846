import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startLocalServer } from './local-server.ts';

export interface StartUpSample {
  /** `new`: an empty data folder; `existing`: the folder the previous start made. */
  folder: 'new' | 'existing';
  /** What ended the start: `/readyz` answering 200, or the first page (`/`). */
  until: 'ready' | 'first page';
  ms: number;
  rssMiB: number | undefined;
  peakMiB: number | undefined;
}

const starts = [
  { folder: 'new', until: 'ready' },
  { folder: 'existing', until: 'ready' },
  { folder: 'existing', until: 'first page' },
] as const;

/**
 * `--scenario start-up`: the site's own server (dist/node/server.js, no bench route) started
 * `rounds` times on a new data folder, then twice on the folder it made, each timed from spawn to
 * the first 200 from /readyz or from `/`, with its memory then. With DATABASE_URL set it measures
 * a PostgreSQL replica.
 */
export async function runStartUp(root: string, rounds: number, env: Record<string, string>): Promise<StartUpSample[]> {
  const samples: StartUpSample[] = [];
  // As `npm start` and the image: Node 22 and later read compiled code from it (the first start fills it).
  env = { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(root, 'dist/compile-cache'), ...env };
  for (let round = 0; round < rounds; round += 1) {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'asdas-bench-start-'));
    try {
      for (const { folder, until } of starts) {
        const waitFor = until === 'ready' ? '/readyz' : '/';
        const server = await startLocalServer(root, { env, dataDir, waitFor, site: true });
        const memory = server.memory();
        samples.push({ folder, until, ms: server.readyMs, rssMiB: memory?.rssMiB, peakMiB: memory?.peakMiB });
        await server.stop();
        console.log(
          `  ${folder.padEnd(8)} folder, ${until.padEnd(10)}: ${server.readyMs.toFixed(0)} ms, RSS ${memory?.rssMiB.toFixed(0) ?? '?'} MiB (peak ${memory?.peakMiB.toFixed(0) ?? '?'} MiB)`,
        );
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const { folder, until } of starts) {
    const times = samples
      .filter((sample) => sample.folder === folder && sample.until === until)
      .map((sample) => sample.ms);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `  ${folder} folder, ${until}: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms (${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)})`,
    );
  }
  return samples;
}
