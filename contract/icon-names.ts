// Every name passes these checks before it reaches a cache key, a module resolution or a URL.

/** Iconify's own naming rule. */
export const ICON_NAME_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
const namePattern = new RegExp(ICON_NAME_PATTERN);

export const MAX_NAME_LENGTH = 64;
export const MAX_ICONS_PER_REQUEST = 100;

/** `constructor` passes the pattern; icon names are looked up in prototype-free tables, collections not. */
const reservedCollections = new Set(Object.getOwnPropertyNames(Object.prototype));

function isValidName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_NAME_LENGTH && namePattern.test(name);
}

export function isValidCollection(name: string): boolean {
  return isValidName(name) && !reservedCollections.has(name);
}

export type IconsQueryResult = { ok: true; names: string[] } | { ok: false; reason: string };

/** Unique and sorted, so equal requests share one cache entry whatever their order. */
export function parseIconsQuery(value: unknown): IconsQueryResult {
  const parts = Array.isArray(value) ? value : [value];
  if (parts.length === 0 || parts.some((part) => typeof part !== 'string')) {
    return { ok: false, reason: 'The icons query parameter is required.' };
  }
  const joined = (parts as string[]).join(',');
  if (joined === '') return { ok: false, reason: 'The icons query parameter is required.' };
  const names = joined.split(',');
  if (names.length > MAX_ICONS_PER_REQUEST) {
    return { ok: false, reason: `At most ${MAX_ICONS_PER_REQUEST} icons can be requested at once.` };
  }
  for (const name of names) {
    if (!isValidName(name)) {
      return {
        ok: false,
        reason: `Invalid icon name: icon names are 1 to ${MAX_NAME_LENGTH} lowercase letters, digits and single hyphens.`,
      };
    }
  }
  return { ok: true, names: [...new Set(names)].sort() };
}

/** `mdi.json` → `mdi`; anything that is not a valid collection file name → null. */
export function collectionFromParam(param: unknown): string | null {
  if (typeof param !== 'string' || !param.endsWith('.json')) return null;
  const name = param.slice(0, -'.json'.length);
  return isValidCollection(name) ? name : null;
}

/** `mdi:home` → `['mdi', 'home']` when both halves are valid names, else null. */
export function splitQualifiedName(qualified: string): [collection: string, name: string] | null {
  const colon = qualified.indexOf(':');
  if (colon < 0) return null;
  const collection = qualified.slice(0, colon);
  const name = qualified.slice(colon + 1);
  return isValidCollection(collection) && isValidName(name) ? [collection, name] : null;
}
