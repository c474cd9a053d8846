import type { IconifyJSON } from '@iconify/types';
import { splitQualifiedName } from '../../contract/icon-names.ts';
import type { IconData, IconDataMap } from './icon-data.ts';

export type { IconData, IconDataMap };

export interface IconLoaderOptions {
  endpoint?: string;
  /** Asked once when the endpoint fails: the public Iconify API by default. */
  fallbackUrl?: string;
  /** For each of the two requests. */
  timeoutMs?: number;
  /** The endpoint accepts 100; Iconify keeps URLs under ~500 characters. */
  maxNamesPerRequest?: number;
  fetch?: typeof fetch;
}

export interface IconLoader {
  /** `null` for an icon that does not exist, `undefined` when not loaded. */
  peek(name: string): IconData | null | undefined;
  /** The icon's data, or null when it cannot be had. Never rejects. */
  load(name: string): Promise<IconData | null>;
}

const DEFAULT_ICON_ENDPOINT = '/api/_nuxt_icon';
const DEFAULT_ICON_FALLBACK_URL = 'https://api.iconify.design';
// Longer than the server's own 1500 ms upstream timeout, so a slow upstream comes back as the
// endpoint's quick 504 (and then the fallback) rather than as a client-side timeout.
const DEFAULT_TIMEOUT_MS = 4000;

/** A prototype-free copy of an icon table, so `constructor` is an unknown icon, not `Object`. */
function ownTable(value: unknown): Record<string, never> {
  const table = Object.create(null) as Record<string, never>;
  if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(table, value);
  return table;
}

type Outcome = { kind: 'set'; set: IconifyJSON } | { kind: 'missing' } | { kind: 'failed' };

/**
 * Names asked for in the same tick go in one request per collection. When our endpoint fails the
 * public Iconify API is asked once; a 404 from the endpoint is final.
 */
export function createIconLoader(options: IconLoaderOptions = {}): IconLoader {
  const endpoint = (options.endpoint ?? DEFAULT_ICON_ENDPOINT).replace(/\/$/, '');
  const fallbackUrl = (options.fallbackUrl ?? DEFAULT_ICON_FALLBACK_URL).replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxNames = Math.max(1, Math.min(options.maxNamesPerRequest ?? 32, 100));
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const cache = new Map<string, IconData | null>();
  const pending = new Map<string, Promise<IconData | null>>();
  // collection → icon name → who is waiting for it
  let queue = new Map<string, Map<string, (data: IconData | null) => void>>();
  let scheduled = false;

  async function ask(url: string, collection: string): Promise<Outcome> {
    let response: Response;
    try {
      response = await doFetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json' },
      });
    } catch {
      return { kind: 'failed' };
    }
    // 429: our endpoint's limit on upstream calls (per address), not an answer about the icons.
    if (response.status >= 500 || response.status === 429) return { kind: 'failed' };
    if (!response.ok) return { kind: 'missing' };
    try {
      const set = (await response.json()) as IconifyJSON;
      if (!set || typeof set !== 'object' || set.prefix !== collection || !set.icons || typeof set.icons !== 'object') {
        return { kind: 'failed' };
      }
      return { kind: 'set', set: { ...set, icons: ownTable(set.icons), aliases: ownTable(set.aliases) } };
    } catch {
      return { kind: 'failed' };
    }
  }

  async function fetchBatch(collection: string, names: string[]): Promise<IconifyJSON | null> {
    const path = `/${collection}.json?icons=${names.join(',')}`;
    let outcome = await ask(endpoint + path, collection);
    if (outcome.kind === 'failed') outcome = await ask(fallbackUrl + path, collection);
    return outcome.kind === 'set' ? outcome.set : null;
  }

  function flush() {
    scheduled = false;
    const batches = queue;
    queue = new Map();
    for (const [collection, waiting] of batches) {
      const names = [...waiting.keys()].sort();
      for (let start = 0; start < names.length; start += maxNames) {
        const chunk = names.slice(start, start + maxNames);
        void fetchBatch(collection, chunk)
          .then(async (set) => (set ? { set, iconFromSet: (await import('./icon-draw.ts')).iconFromSet } : null))
          .catch(() => null)
          .then((found) => {
            for (const name of chunk) {
              const data = found ? found.iconFromSet(found.set, name) : null;
              cache.set(`${collection}:${name}`, data);
              pending.delete(`${collection}:${name}`);
              waiting.get(name)?.(data);
            }
          });
      }
    }
  }

  return {
    peek: (name) => cache.get(name),
    load(qualified) {
      const known = cache.get(qualified);
      if (known !== undefined) return Promise.resolve(known);
      const inFlight = pending.get(qualified);
      if (inFlight) return inFlight;
      const parts = splitQualifiedName(qualified);
      if (!parts) {
        cache.set(qualified, null);
        return Promise.resolve(null);
      }
      const [collection, name] = parts;
      const promise = new Promise<IconData | null>((resolve) => {
        let waiting = queue.get(collection);
        if (!waiting) queue.set(collection, (waiting = new Map<string, (data: IconData | null) => void>()));
        waiting.set(name, resolve);
      });
      pending.set(qualified, promise);
      if (!scheduled) {
        scheduled = true;
        setTimeout(flush, 0);
      }
      return promise;
    },
  };
}
