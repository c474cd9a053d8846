/**
 * New-build detection (decision 0005): one timer at a time, so checks never overlap; a failed
 * check is ignored; after `stop()` a check in flight can no longer call `onOutdated`.
 */

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
const LATEST_BUILD_PATH = '/builds/latest.json';

export interface BuildInfo {
  id: string;
  timestamp: number;
}

export interface BuildCheckOptions<Handle = unknown> {
  currentId: string;
  intervalMs?: number;
  fetchLatest: () => Promise<BuildInfo>;
  onOutdated: (latest: BuildInfo) => void;
  onError?: (error: unknown) => void;
  setTimer?: (fn: () => void, ms: number) => Handle;
  clearTimer?: (handle: Handle) => void;
}

/** `/builds/latest.json?<now>`: the query busts any HTTP cache between us and the file. */
export function latestUrl(now: number = Date.now(), path: string = LATEST_BUILD_PATH): string {
  return `${path}?${now}`;
}

/** Null unless `{ id: non-empty string, timestamp: number }`. */
export function parseBuildInfo(value: unknown): BuildInfo | null {
  if (!value || typeof value !== 'object') return null;
  const { id, timestamp } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id === '' || typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return null;
  return { id, timestamp };
}

export interface FetchLatestOptions {
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  path?: string;
}

export async function fetchLatestBuild(options: FetchLatestOptions = {}): Promise<BuildInfo> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const url = latestUrl((options.now ?? Date.now)(), options.path);
  const response = await doFetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Build check failed: ${response.status} for ${url}`);
  const info = parseBuildInfo(await response.json());
  if (!info) throw new Error(`Build check failed: malformed ${url}`);
  return info;
}

export function startBuildCheck<Handle = ReturnType<typeof setTimeout>>(
  options: BuildCheckOptions<Handle>,
): () => void {
  const intervalMs = options.intervalMs ?? BUILD_CHECK_INTERVAL_MS;
  if (!(intervalMs > 0) || !Number.isFinite(intervalMs)) {
    throw new RangeError(`startBuildCheck: intervalMs must be a positive number, got ${intervalMs}`);
  }
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms) as unknown as Handle);
  const clearTimer = options.clearTimer ?? ((h: Handle) => clearTimeout(h as unknown as ReturnType<typeof setTimeout>));

  let stopped = false;
  let timer: Handle | undefined;
  let hasTimer = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimer(() => void check(), intervalMs);
    hasTimer = true;
  };

  async function check(): Promise<void> {
    hasTimer = false;
    if (stopped) return;
    let latest: BuildInfo | null;
    try {
      latest = parseBuildInfo(await options.fetchLatest());
      if (!latest) throw new Error('Build check failed: malformed build info');
    } catch (error) {
      if (!stopped) options.onError?.(error);
      schedule();
      return;
    }
    if (stopped) return;
    if (latest.id !== options.currentId) {
      stopped = true;
      options.onOutdated(latest);
      return;
    }
    schedule();
  }

  schedule();

  return function stop() {
    stopped = true;
    if (hasTimer) {
      hasTimer = false;
      clearTimer(timer as Handle);
    }
  };
}
