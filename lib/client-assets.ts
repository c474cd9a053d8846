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

/** Each language's strings as the manifest names them (client/i18n.ts). */
const localeSources: Record<Locale, string> = { en: '../locales/en.json', th: '../locales/th.json' };
/** For the pages marked `strings: 'account'`. */
const accountSources: Record<Locale, string> = { en: '../locales/en.json?account', th: '../locales/th.json?account' };
const accountPageModules = new Set(
  pageRoutes.filter((route) => route.strings === 'account').map((route) => route.module),
);

export interface ClientAssets {
  /** Modulepreload tags for what a page loads before it hydrates, beyond what index.html names. */
  preloadTags(locale: Locale, pageModule: string | undefined): string;
}

/** Development: Vite's dev server serves modules one by one, nothing to preload. */
export const noClientAssets: ClientAssets = { preloadTags: () => '' };

/** Reads Vite's client manifest once, at start. */
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
  // Without the modulepreload polyfill the entry's code is a chunk index.html names itself.
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
