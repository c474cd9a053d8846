import type * as Navigation from './navigation.ts';

// The navigation chunk (router/navigation.ts), loaded once the page has hydrated. Once it is there,
// callers use it at once: a hover's prefetch must be registered before the click's navigation asks
// for the same payload, and a loader must not add a wait (client/entry-client.tsx).
let loaded: typeof Navigation | undefined;

/** The chunk's exports if it has loaded, else undefined. */
export function navigationLoaded(): typeof Navigation | undefined {
  return loaded;
}

export async function loadNavigation(): Promise<typeof Navigation> {
  return (loaded ??= await import('./navigation.ts'));
}
