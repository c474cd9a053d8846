import { readFile, writeFile } from 'node:fs/promises';
import type { ContentSnapshot } from './snapshot.ts';
import { readSources } from './source-files.ts';

/**
 * The build parses the shipped content once and keeps the snapshot beside the server; a start
 * whose content folder holds exactly those files (same paths and bytes: the snapshot's version)
 * uses it instead of parsing again, which was most of a start's time (decision 0033). Any
 * difference, an edit or a mounted folder, and the content is parsed as before.
 */
/** Relative to the project's folder; `npm run build` writes it. */
export const snapshotCacheFile = 'dist/content-snapshot.json';

export async function writeSnapshotCache(file: string, snapshot: ContentSnapshot): Promise<void> {
  await writeFile(file, JSON.stringify(snapshot));
}

/** The cached snapshot for `root` when its files are those it was made from; otherwise undefined. */
export async function readSnapshotCache(file: string, root: string): Promise<ContentSnapshot | undefined> {
  let cached: ContentSnapshot;
  try {
    cached = JSON.parse(await readFile(file, 'utf8')) as ContentSnapshot;
  } catch {
    return undefined;
  }
  try {
    const { version } = await readSources(root, (absolute) => absolute);
    return version === cached.version ? { ...cached, root } : undefined;
  } catch {
    return undefined;
  }
}
