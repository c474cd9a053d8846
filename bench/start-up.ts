import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startLocalServer } from './local-server.ts';

export interface StartUpSample {
  /** `new`: an empty data folder; `existing`: the folder the previous start made. */
  folder: 'new' | 'existing';
  readyMs: number;
  rssMiB: number | undefined;
  peakMiB: number | undefined;
}

/**
 * `--scenario start-up`: the production server started `rounds` times on a new data folder and
 * then again on the folder it made, each time timed from spawn to its first 200 from /readyz, with
 * its memory then. With DATABASE_URL set it measures a PostgreSQL replica (the folder then holds
 * nothing but the lock-free outbox).
 */
export async function runStartUp(root: string, rounds: number, env: Record<string, string>): Promise<StartUpSample[]> {
  const samples: StartUpSample[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const dataDir = mkdtempSync(join(os.tmpdir(), 'asdas-bench-start-'));
    try {
      for (const folder of ['new', 'existing'] as const) {
        const server = await startLocalServer(root, { env, dataDir });
        const memory = server.memory();
        samples.push({ folder, readyMs: server.readyMs, rssMiB: memory?.rssMiB, peakMiB: memory?.peakMiB });
        await server.stop();
        const line = `  ${folder.padEnd(8)} folder: ready in ${server.readyMs.toFixed(0)} ms, RSS ${memory?.rssMiB.toFixed(0) ?? '?'} MiB (peak ${memory?.peakMiB.toFixed(0) ?? '?'} MiB)`;
        console.log(line);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  for (const folder of ['new', 'existing'] as const) {
    const times = samples.filter((sample) => sample.folder === folder).map((sample) => sample.readyMs);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `  ${folder} folder: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms (${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)})`,
    );
  }
  return samples;
}
