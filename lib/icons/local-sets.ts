import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import { iconCache } from './cache.ts';
import { isValidCollection, splitQualifiedName } from '../../contract/icon-names.ts';

/**
 * Installed `@iconify-json/<name>` sets, shared by every app instance in the process. A set not
 * asked for in `SET_IDLE_MS` is let go and read again when next needed (decision 0022).
 */

const require = createRequire(import.meta.url);

export const SET_IDLE_MS = 30_000;
const loaded = new Map<string, { set: Promise<IconifyJSON>; lastUsed: number }>();
let sweeper: NodeJS.Timeout | undefined;

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

/** Only called with a validated name. */
function resolveSetFile(name: string): string | null {
  try {
    return require.resolve(`@iconify-json/${name}/icons.json`);
  } catch {
    return null;
  }
}

/** Without a prototype, so `constructor` and friends are never found. */
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

/** Null for an invalid name too: it never reaches module resolution. A failed read is not kept. */
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
  /** With the icon's rotation and flips applied. */
  body: string;
  /** These four make the viewBox. */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Icons for the server renderer, by `collection:name`, from the installed sets only. */
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
