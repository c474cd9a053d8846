import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { loadContent } from '../../lib/content/loader.ts';
import { readSnapshotCache, snapshotCacheFile, writeSnapshotCache } from '../../lib/content/snapshot-cache.ts';
import { fixture, realContent } from '../helpers/content.ts';

// A production start reuses the build's parsed content only while the folder holds the very files
// it was made from; otherwise the content is parsed again.

t.test('the snapshot is used while the files are the same, and only then', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'asdas-snapshot-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const root = path.join(dir, 'content');
  await cp(fixture('content-basic'), root, { recursive: true });
  const cacheFile = path.join(dir, 'snapshot.json');
  const parsed = await loadContent(root);
  await writeSnapshotCache(cacheFile, parsed);

  t.strictSame(await readSnapshotCache(cacheFile, root), parsed, 'the same files: the parsed snapshot, as it was');

  const moved = path.join(dir, 'elsewhere');
  await cp(root, moved, { recursive: true });
  t.equal((await readSnapshotCache(cacheFile, moved))?.root, moved, 'the same files elsewhere: named by their folder');

  const home = path.join(root, 'en/index.md');
  await writeFile(home, `${await readFile(home, 'utf8')}\nOne more line.\n`);
  t.equal(await readSnapshotCache(cacheFile, root), undefined, 'one file edited: parsed again');
  const reparsed = await loadContent(root);
  t.not(reparsed.version, parsed.version);

  await writeFile(path.join(root, 'en/extra.md'), '---\ntitle: Extra\ndescription: One more page\n---\n\n# Extra\n');
  await writeSnapshotCache(cacheFile, reparsed);
  t.equal(await readSnapshotCache(cacheFile, root), undefined, 'one file added: parsed again');

  await writeFile(cacheFile, '{"version":');
  t.equal(await readSnapshotCache(cacheFile, root), undefined, 'an unreadable cache: parsed again');
  t.equal(await readSnapshotCache(path.join(dir, 'missing.json'), root), undefined, 'no cache: parsed again');
  t.equal(await readSnapshotCache(cacheFile, path.join(dir, 'no-such-folder')), undefined, 'no folder: parsed again');
});

t.test("the build's snapshot is the shipped content, parsed", async (t) => {
  const built = path.resolve(import.meta.dirname, '../..', snapshotCacheFile);
  const cached = await readSnapshotCache(built, realContent);
  t.ok(cached, `${snapshotCacheFile} matches content/ (npm test builds first)`);
  t.strictSame(cached, await loadContent(realContent));
});
