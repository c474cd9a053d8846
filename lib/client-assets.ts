import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locale } from '../contract/locales.ts';
import { pageRoutes } from '../contract/routes.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** Where each language's strings are imported from (client/i18n.ts), as the manifest names them. */
const localeSources: Record<Locale, string> = { en: '../locales/en.json', th: '../locales/th.json' };
/** And its account strings, which the pages marked `strings: 'account'` load with their module. */
const accountSources: Record<Locale, string> = { en: '../locales/en.json?account', th: '../locales/th.json?account' };
const accountPageModules = new Set(pageRoutes.filter((route) => route.strings === 'account').map((route) => route.module));

export interface ClientAssets {
  /**
   * `<link rel="modulepreload">` tags for what a page loads before it hydrates, beyond the entry
   * (which index.html already preloads): its language's strings and its page module's chunk (with
   * the language's account strings for an account page).
   */
  preloadTags(locale: Locale, pageModule: string | undefined): string;
}

/** Development: Vite's dev server serves modules one by one, nothing to preload. */
export const noClientAssets: ClientAssets = { preloadTags: () => '' };

/** Reads Vite's client manifest (dist/client/.vite/manifest.json) once, at start. */
export function loadClientAssets(clientDir: string): ClientAssets {
  const manifest = JSON.parse(readFileSync(resolve(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const closure = (keys: readonly string[], into = new Set<string>()): Set<string> => {
    for (const key of keys) {
      if (into.has(key) || !manifest[key]) continue;
      into.add(key);
      closure(manifest[key].imports ?? [], into);
    }
    return into;
  };
  const entryKeys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const preloadedByEntry = closure(entryKeys);
  // What index.html itself loads or preloads: without the modulepreload polyfill the manifest has no
  // entry (the entry's code is the app chunk, which index.html names with the runtime it imports).
  const html = readFileSync(resolve(clientDir, 'index.html'), 'utf8');
  const namedByHtml = new Set([...html.matchAll(/ (?:src|href)="\/([^"]+\.js)"/g)].map((match) => match[1]));
  const tag = (key: string) => `<link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">`;
  const memo = new Map<string, string>();
  return {
    preloadTags(locale, pageModule) {
      const memoKey = `${locale} ${pageModule ?? ''}`;
      let tags = memo.get(memoKey);
      if (tags === undefined) {
        const wanted = [
          localeSources[locale],
          ...(pageModule ? [pageModule] : []),
          ...(pageModule && accountPageModules.has(pageModule) ? [accountSources[locale]] : []),
        ];
        tags = [...closure(wanted)]
          .filter((key) => !preloadedByEntry.has(key) && !namedByHtml.has(manifest[key]!.file))
          .map(tag)
          .join('');
        memo.set(memoKey, tags);
      }
      return tags;
    },
  };
}
