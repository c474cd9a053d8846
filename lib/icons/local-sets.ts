import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import { iconCache } from './cache.ts';
import { isValidCollection, splitQualifiedName } from '../../contract/icon-names.ts';

/**
 * Icon sets installed as `@iconify-json/<name>` packages, read when first asked for and kept in
 * memory while they are in use. Sets are plain files that never change while the process runs, so
 * this store is shared by every app instance in the process and by the SSR renderer.
 *
 * A set is only needed to start the renderer (which keeps the few icons it draws) and to answer
 * `GET /api/_nuxt_icon/...` misses (answers are cached by plugins/icons.ts): held for good, the two
 * installed sets took about 5 MiB of every replica's heap for the rare browser that asks for an
 * icon its page did not bring. A set nobody asked for in `SET_IDLE_MS` is let go, and read again
 * (about 20 ms for mdi) when next asked for.
 */

const require = createRequire(import.meta.url);

export const SET_IDLE_MS = 30_000;
const loaded = new Map<string, { set: Promise<IconifyJSON>; lastUsed: number }>();
let sweeper: NodeJS.Timeout | undefined;

/** Lets go of the sets not asked for in `SET_IDLE_MS` before `now` (run every half of it while any set is held). */
export function dropIdleSets(now = Date.now()): void {
  for (const [name, entry] of loaded) if (now - entry.lastUsed >= SET_IDLE_MS) loaded.delete(name);
  if (loaded.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

// Names found not installed. Bounded: anyone can ask for any valid name.
const missing = iconCache<true>(1000);
const MISSING_TTL_MS = 10 * 60 * 1000;

/** Where `@iconify-json/<name>/icons.json` is installed, or null. Only called with a validated name. */
function resolveSetFile(name: string): string | null {
  try {
    return require.resolve(`@iconify-json/${name}/icons.json`);
  } catch {
    return null;
  }
}

/** Tables keyed by icon name, without a prototype, so `constructor` and friends are never found. */
function ownTable<T>(value: unknown): Record<string, T> {
  const table = Object.create(null) as Record<string, T>;
  if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(table, value);
  return table;
}

async function readSet(name: string, file: string): Promise<IconifyJSON> {
  const data = JSON.parse(await readFile(file, 'utf8')) as IconifyJSON;
  if (!data || typeof data !== 'object' || data.prefix !== name || typeof data.icons !== 'object') {
    throw new Error(`@iconify-json/${name}/icons.json is not an icon set with prefix '${name}'.`);
  }
  return { ...data, icons: ownTable(data.icons), aliases: ownTable(data.aliases) };
}

/**
 * The installed icon set called `name`, or null when none is installed (or the name is invalid:
 * an unchecked name never reaches module resolution). A set that fails to read is not kept, so
 * the next call tries again.
 */
export async function loadLocalSet(name: string): Promise<IconifyJSON | null> {
  if (!isValidCollection(name)) return null;
  const held = loaded.get(name);
  if (held) {
    held.lastUsed = Date.now();
    return held.set;
  }
  if (missing.get(name)) return null;
  const file = resolveSetFile(name);
  if (!file) {
    missing.set(name, true, { ttl: MISSING_TTL_MS });
    return null;
  }
  const pending = readSet(name, file);
  const entry = { set: pending, lastUsed: Date.now() };
  loaded.set(name, entry);
  pending.catch(() => {
    if (loaded.get(name) === entry) loaded.delete(name);
  });
  sweeper ??= setInterval(dropIdleSets, SET_IDLE_MS / 2).unref();
  return pending;
}

export interface RenderedIcon {
  /** SVG content with the icon's rotation and flips already applied. */
  body: string;
  /** The viewBox: `${left} ${top} ${width} ${height}`. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Icons for the server renderer, by `collection:name` (`mdi:home`), from the installed sets only:
 * never the upstream, never HTTP. Unknown, invalid or uninstalled names are left out of the answer.
 */
export async function loadIcons(names: readonly string[]): Promise<Record<string, RenderedIcon>> {
  // Keys hold a colon, so they can never be `__proto__`: a plain object is safe here.
  const result: Record<string, RenderedIcon> = {};
  for (const qualified of new Set(names)) {
    const parts = splitQualifiedName(qualified);
    if (!parts) continue;
    const set = await loadLocalSet(parts[0]);
    const data = set && getIconData(set, parts[1]);
    if (!data) continue;
    const svg = iconToSVG(data);
    const [left, top, width, height] = svg.viewBox;
    result[qualified] = { body: svg.body, left, top, width, height };
  }
  return result;
}
