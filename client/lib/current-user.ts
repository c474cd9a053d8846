import type { PublicUser } from '../../contract/page-data.ts';

// Who is logged in, as a store for `useSyncExternalStore` with SWR's rules (decision 0017).

export interface CurrentUserData {
  user: PublicUser | null;
}

const FRESH_MS = 5_000;
const MAX_ERROR_RETRIES = 3;

/** 1000, 2000, 4000 ... ms, at most 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempt), 30_000);
}

export function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { statusCode?: unknown; status?: unknown; response?: { status?: unknown } };
  for (const v of [e.statusCode, e.status, e.response?.status]) {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return undefined;
}

function isClientError(error: unknown): boolean {
  const status = statusOf(error);
  return status !== undefined && status >= 400 && status < 500;
}

export interface StoreEvents {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  /** False while the page is hidden (a `visibilitychange` to hidden is not a return to the page). */
  visible(): boolean;
}

export interface CurrentUserStoreOptions {
  fetch: () => Promise<CurrentUserData>;
  now?: () => number;
  schedule?: (fn: () => void, ms: number) => unknown;
  events?: StoreEvents;
  freshMs?: number;
}

export type CurrentUserStore = ReturnType<typeof createCurrentUserStore>;

export function createCurrentUserStore(options: CurrentUserStoreOptions) {
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const freshMs = options.freshMs ?? FRESH_MS;
  const events = options.events;
  const listeners = new Set<() => void>();
  let value: CurrentUserData | undefined;
  let seeded: CurrentUserData | undefined;
  let freshAt = -Infinity;
  let focusAt = -Infinity;
  let inFlight: Promise<void> | undefined;

  const set = (next: CurrentUserData, fresh = true) => {
    value = next;
    freshAt = fresh ? now() : -Infinity;
    for (const listener of listeners) listener();
  };

  const run = (attempt: number): Promise<void> =>
    options.fetch().then(
      (data) => set(data),
      (error: unknown) => {
        if (isClientError(error) || attempt >= MAX_ERROR_RETRIES) return;
        schedule(() => void revalidate(true, attempt + 1), retryDelay(attempt));
      },
    );

  function revalidate(force = false, attempt = 0): Promise<void> {
    if (inFlight) return inFlight;
    if (!force && value !== undefined && now() - freshAt < freshMs) return Promise.resolve();
    inFlight = run(attempt).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  const onFocus = () => {
    if (events && !events.visible()) return;
    if (now() - focusAt < freshMs) return;
    focusAt = now();
    void revalidate();
  };
  const onOnline = () => void revalidate();
  const triggers: [string, () => void][] = [
    ['focus', onFocus],
    ['visibilitychange', onFocus],
    ['online', onOnline],
  ];

  return {
    getSnapshot: (): CurrentUserData | undefined => value,
    subscribe(listener: () => void): () => void {
      if (listeners.size === 0) {
        focusAt = now(); // as SWR did: no focus revalidation within freshMs of mounting
        for (const [type, handler] of triggers) events?.addEventListener(type, handler);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) for (const [type, handler] of triggers) events?.removeEventListener(type, handler);
      };
    },
    /** The root loader's data: a new object (server render, login, logout) replaces the value. */
    seed(data: CurrentUserData): void {
      if (Object.is(data, seeded)) return;
      const hydration = seeded === undefined;
      seeded = data;
      // Only the server's render is an answer of the API's: after a form (login, an emailed link)
      // the next component that mounts asks again, as SWR did (decision 0017).
      set(data, hydration);
    },
    revalidate: (): Promise<void> => revalidate(),
  };
}

const browserEvents: StoreEvents | undefined =
  typeof window === 'undefined'
    ? undefined
    : {
        addEventListener: (type, listener) =>
          (type === 'visibilitychange' ? document : window).addEventListener(type, listener),
        removeEventListener: (type, listener) =>
          (type === 'visibilitychange' ? document : window).removeEventListener(type, listener),
        visible: () => document.visibilityState !== 'hidden',
      };

/** The browser's one store; its fetcher is set by client/hooks.ts (which knows the API path). */
export function createBrowserCurrentUserStore(fetch: () => Promise<CurrentUserData>): CurrentUserStore {
  return createCurrentUserStore({ fetch, events: browserEvents });
}
