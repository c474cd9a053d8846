import type { IconLoader, IconLoaderOptions } from './icon-loader.ts';

/**
 * Loaded with the first icon a page did not bring, which most visits never need (decision 0019).
 * Until then `peek` answers undefined, as a new loader does.
 */
export function lazyIconLoader(options: IconLoaderOptions = {}): IconLoader {
  let loader: IconLoader | undefined;
  let loading: Promise<IconLoader> | undefined;
  const ready = (): Promise<IconLoader> => {
    loading ??= import('./icon-loader.ts').then(({ createIconLoader }) => (loader = createIconLoader(options)));
    // A chunk that failed to load is asked for again next time (a deploy, a dropped connection).
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  return {
    peek: (name) => loader?.peek(name),
    load: (name) =>
      ready().then(
        (real) => real.load(name),
        () => null,
      ),
  };
}
