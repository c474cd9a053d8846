import { readFile, writeFile } from 'node:fs/promises';
import type { ContentSnapshot } from './snapshot.ts';
import { readSources } from './source-files.ts';

/**
 * The build's parsed content, used by a start whose content folder holds exactly the same files
 * (paths and bytes); any difference and the content is parsed as before (decision 0033).
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
