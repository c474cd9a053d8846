import type { IconLoader, IconLoaderOptions } from './icon-loader.ts';

/**
 * An IconLoader whose code (client/lib/icon-loader.ts) is loaded with the first icon a page did
 * not bring. The icons a page shows when it loads come with it (contract/app-icons.ts), so most
 * visits never need it (docs/look-and-accessibility.md, Bundle budget). Until then nothing is known (`peek` answers
 * undefined), as with a new loader; like it, `load` never rejects.
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
