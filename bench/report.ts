import type { LoadResult } from './load.ts';

const fixed = (value: number | undefined, digits: number) => (value === undefined ? '' : value.toFixed(digits));

/** The summary table: one row per route, ratios to the baseline page of the same run. */
export function table(results: LoadResult[]): string {
  const bare = results.some((r) => r.bareOf !== undefined);
  const rows = [
    [
      'route',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/req',
      'KB/resp',
      'RSS MiB',
      'req/s vs base',
      'CPU x base',
      'CPU x floor',
      ...(bare ? ['CPU x bare'] : []),
      'unexpected',
    ],
    ...results.map((r) => [
      r.expectedStatus === 200 ? r.name : `${r.name} (${r.expectedStatus})`,
      Math.round(r.requestsPerSecond).toLocaleString('en-US'),
      String(r.latencyMs.p50),
      String(r.latencyMs.p99),
      fixed(r.cpuMsPerRequest, 3),
      (r.bytesPerResponse / 1024).toFixed(1),
      fixed(r.rssMiB, 0),
      r.ratioToBaseline === undefined ? '' : `${r.ratioToBaseline.toFixed(2)}x`,
      r.cpuToBaseline === undefined ? '' : `${r.cpuToBaseline.toFixed(1)}x`,
      r.cpuToFloor === undefined ? '' : `${r.cpuToFloor.toFixed(2)}x`,
      ...(bare ? [r.cpuToBare === undefined ? '' : `${r.cpuToBare.toFixed(2)}x`] : []),
      String(r.unexpectedStatus + r.errors + r.timeouts || ''),
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

/**
 * Fills each result's ratios to the baseline row (req/s and server CPU per request), each page's
 * CPU over its React floor's (the floor rows name their page) and over the bare Fastify row's.
 */
export function compareToBaseline(results: LoadResult[], baseline: LoadResult | undefined) {
  for (const floor of results) {
    const page = floor.floorOf === undefined ? undefined : results.find((result) => result.name === floor.floorOf);
    if (page?.cpuMsPerRequest !== undefined && floor.cpuMsPerRequest)
      page.cpuToFloor = page.cpuMsPerRequest / floor.cpuMsPerRequest;
  }
  for (const bare of results) {
    const page = bare.bareOf === undefined ? undefined : results.find((result) => result.name === bare.bareOf);
    if (page?.cpuMsPerRequest !== undefined && bare.cpuMsPerRequest) {
      page.cpuToBare = page.cpuMsPerRequest / bare.cpuMsPerRequest;
      bare.cpuToBare = 1;
    }
  }
  if (!baseline) return;
  for (const result of results) {
    if (baseline.requestsPerSecond > 0) result.ratioToBaseline = result.requestsPerSecond / baseline.requestsPerSecond;
    if (result.cpuMsPerRequest !== undefined && baseline.cpuMsPerRequest) {
      result.cpuToBaseline = result.cpuMsPerRequest / baseline.cpuMsPerRequest;
    }
  }
}
