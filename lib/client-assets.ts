import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Locale } from '../contract/locales.ts';

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

export interface ClientAssets {
  /**
   * `<link rel="modulepreload">` tags for what a page loads before it hydrates, beyond the entry
   * (which index.html already preloads): its language's strings and its page module's chunk.
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
  const tag = (key: string) => `<link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">`;
  const memo = new Map<string, string>();
  return {
    preloadTags(locale, pageModule) {
      const memoKey = `${locale} ${pageModule ?? ''}`;
      let tags = memo.get(memoKey);
      if (tags === undefined) {
        const wanted = [localeSources[locale], ...(pageModule ? [pageModule] : [])];
        tags = [...closure(wanted)].filter((key) => !preloadedByEntry.has(key)).map(tag).join('');
        memo.set(memoKey, tags);
      }
      return tags;
    },
  };
}
