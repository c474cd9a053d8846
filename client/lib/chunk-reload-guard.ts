/**
 * The once-per-path reload marker of decision 0005. Storage that is missing or throws (even
 * reading `window.sessionStorage`) falls back to a marker in memory: after the reload it is gone,
 * but this runs only for a client navigation, which needs a user action, so it cannot loop.
 */

import { webStorage } from './web-storage.ts';

export const RELOAD_MARKER_KEY = 'asdas:reload';
export const RELOAD_TTL_MS = 10_000;

export interface ReloadMarker {
  path: string;
  expires: number;
}

export interface MarkerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ChunkReloadOptions {
  /** sessionStorage, or a function returning it (may throw), or null when unavailable. */
  storage?: MarkerStorage | (() => MarkerStorage | null | undefined) | null;
  now?: () => number;
  ttlMs?: number;
  memory?: MemoryMarker;
}

export interface MemoryMarker {
  marker: ReloadMarker | null;
}

const pageMemory: MemoryMarker = { marker: null };

/** `window.sessionStorage`, or null when there is none or reading it throws. */
export const browserSessionStorage = (): MarkerStorage | null => webStorage('sessionStorage');

function resolveStorage(storage: ChunkReloadOptions['storage']): MarkerStorage | null {
  try {
    const s = typeof storage === 'function' ? storage() : storage;
    return s ?? null;
  } catch {
    return null;
  }
}

export function parseMarker(raw: unknown, now: number, ttlMs: number): ReloadMarker | null {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  const { path, expires } = value as Record<string, unknown>;
  if (typeof path !== 'string' || typeof expires !== 'number' || !Number.isFinite(expires)) return null;
  // Set by a clock moved back or by hand: it must not block longer than one TTL.
  if (expires - now > ttlMs) return null;
  return { path, expires };
}

function blocks(marker: ReloadMarker | null, path: string, now: number): boolean {
  return marker !== null && marker.path === path && now < marker.expires;
}

/** True the first time (and writes the marker), false while a marker for `path` lasts. Never throws. */
export function shouldReloadForChunkError(path: string, options: ChunkReloadOptions = {}): boolean {
  const now = (options.now ?? Date.now)();
  const ttlMs = options.ttlMs ?? RELOAD_TTL_MS;
  const memory = options.memory ?? pageMemory;
  const storage = resolveStorage(options.storage === undefined ? browserSessionStorage : options.storage);

  let stored: ReloadMarker | null = null;
  if (storage) {
    try {
      stored = parseMarker(storage.getItem(RELOAD_MARKER_KEY), now, ttlMs);
    } catch {
      stored = null;
    }
  }
  const remembered = memory.marker && parseMarker(memory.marker, now, ttlMs);
  if (blocks(stored, path, now) || blocks(remembered, path, now)) return false;

  const marker: ReloadMarker = { path, expires: now + ttlMs };
  memory.marker = marker;
  if (storage) {
    try {
      storage.setItem(RELOAD_MARKER_KEY, JSON.stringify(marker));
    } catch {
      // Quota exceeded / private mode: the in-memory marker above still applies.
    }
  }
  return true;
}

const CSS_PRELOAD_RE = /Unable to preload CSS for/i;

const CHUNK_ERROR_RES: readonly RegExp[] = [
  /Failed to fetch dynamically imported module/i, // Chrome, Edge (and Vite's wording)
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /is not a valid JavaScript MIME type/i, // Safari, when a missing chunk is answered with HTML
  /Failed to load module script/i, // Chrome (MIME type mismatch)
  /Loading (?:CSS )?chunk [\w-]+ failed/i, // webpack-style ChunkLoadError
];

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'message' in error) {
    const m = error.message;
    if (typeof m === 'string') return m;
  }
  return '';
}

/** The error inside a `vite:preloadError` event (`event.payload`), or the value itself. */
export function unwrapPreloadError(value: unknown): unknown {
  if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'vite:preloadError') {
    return (value as { payload?: unknown }).payload;
  }
  return value;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = unwrapPreloadError(error);
  for (let i = 0; i < 5 && current != null; i++) {
    chain.push(current);
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** Vite's `Unable to preload CSS for ...`: a CSS-only failure, which does not reload. */
export function isCssPreloadError(error: unknown): boolean {
  return causes(error).some((e) => CSS_PRELOAD_RE.test(messageOf(e)));
}

/** Any browser's wording, a `ChunkLoadError` or a `vite:preloadError`, also in `error.cause`. */
export function isChunkLoadError(error: unknown): boolean {
  if (isCssPreloadError(error)) return false;
  return causes(error).some((e) => {
    if (e && typeof e === 'object' && (e as { name?: unknown }).name === 'ChunkLoadError') return true;
    const message = messageOf(e);
    return CHUNK_ERROR_RES.some((re) => re.test(message));
  });
}
