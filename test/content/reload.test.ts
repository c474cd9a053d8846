import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { loadContent } from '../../lib/content/loader.ts';
import type { ContentSnapshot } from '../../lib/content/snapshot.ts';
import { ContentService } from '../../lib/content/service.ts';
import type { ArticleData, SectionPageData } from '../../contract/content.ts';
import { buildContentApp, callSource, copyFixture, eventually, publicUrl, realContent } from '../helpers/content.ts';

/** Saves as editors do (a new file renamed over the old): a load never reads half a file. */
async function save(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

/** True once `read` resolves; false while it throws (a load between two saves may see a problem). */
const settles = (read: () => Promise<boolean>) => () => read().catch(() => false);

for (const poll of [false, true]) {
  t.test(`development reloads edits without a restart (${poll ? 'polling' : 'fs.watch'})`, async (t) => {
    const { dir, cleanup } = await copyFixture('content-basic');
    const app = await buildContentApp({ root: dir, env: 'development', dev: true, poll });
    t.teardown(async () => {
      await app.close();
      await cleanup();
    });
    const bonus = async () =>
      ((await callSource(app, 'content', 'en', '/bonus', { '*': 'bonus' })) as SectionPageData).page.title;
    t.equal(await bonus(), 'Bonus');
    const version = app.content.version;

    const file = path.join(dir, 'en/bonus.md');
    const original = await readFile(file, 'utf8');
    await save(file, original.replace('title: Bonus', 'title: Bonus, edited'));
    await eventually(settles(async () => (await bonus()) === 'Bonus, edited'));
    t.pass('an edit shows up');
    t.not(app.content.version, version, 'the content version changes');

    // A broken edit: the page shows the problem, the rest of the site keeps working.
    await save(file, original.replace('published: 2026-01-02', 'published: yesterday'));
    await eventually(() => app.content.index.issues.length === 1);
    await t.rejects(callSource(app, 'content', 'en', '/bonus', { '*': 'bonus' }), {
      name: 'ContentError',
      message: /en\/bonus\.md: "published" must be a date \(YYYY-MM-DD\)/,
    });
    const first = (await callSource(app, 'article', 'en', '/asdas/first-post', { slug: 'first-post' })) as ArticleData;
    t.equal(first.article.title, 'First post', 'other pages still work');

    // Fixed again.
    await save(file, original);
    await eventually(() => app.content.index.issues.length === 0);
    t.equal(await bonus(), 'Bonus');

    // A new article appears, a deleted one disappears.
    await save(
      path.join(dir, 'en/asdas/fourth-post.md'),
      '---\ntitle: Fourth post\ndescription: New.\nauthor: bob-writer\npublished: 2026-05-01\n---\n\n## New\n',
    );
    await rm(path.join(dir, 'en/asdas/first-post.md'));
    // A reload may run between the two changes: wait for the one that saw both.
    const slugs = () => app.content.index.getArticleList('en')!.articles.map((item) => item.slug);
    await eventually(() => slugs()[0] === 'fourth-post' && !slugs().includes('first-post'));
    t.pass('the new article leads the list and the deleted one is gone');
    t.match(app.content.sitemapXml(), '/asdas/fourth-post', 'the sitemap follows');
  });
}

t.test('production does not watch', async (t) => {
  const { dir, cleanup } = await copyFixture('content-basic');
  const app = await buildContentApp({ root: dir });
  t.teardown(async () => {
    await app.close();
    await cleanup();
  });
  const file = path.join(dir, 'en/bonus.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('title: Bonus', 'title: Changed'));
  await new Promise((resolve) => setTimeout(resolve, 400));
  const data = (await callSource(app, 'content', 'en', '/bonus', { '*': 'bonus' })) as SectionPageData;
  t.equal(data.page.title, 'Bonus');
});

t.test('the default root is the project content folder', async (t) => {
  const app = await buildContentApp();
  t.teardown(() => app.close());
  t.equal(app.content.version, (await loadContent(realContent)).version, 'the content of the project folder');
  t.ok(app.content.index.getArticleList('en')!.articles.length >= 12);
});

t.test('a missing content folder is a clear start-up error', async (t) => {
  await t.rejects(buildContentApp({ root: '/nonexistent/content' }), { message: /cannot read the content folder/ });
});

t.test('a reload asked for during a load runs again after it', async (t) => {
  const { dir, cleanup } = await copyFixture('content-basic');
  t.teardown(cleanup);
  // The second load (the first reload) reads the folder, then waits here until the test has
  // saved an edit and asked for two more reloads: they come during that load, whatever the disk.
  let loads = 0;
  let readDone!: () => void;
  const firstReadDone = new Promise<void>((resolve) => (readDone = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const read = async (root: string): Promise<ContentSnapshot> => {
    loads += 1;
    const snapshot = await loadContent(root);
    if (loads === 2) {
      readDone();
      await released;
    }
    return snapshot;
  };
  const content = await ContentService.load({ root: dir, strict: false, showDrafts: true, publicUrl, read });
  const file = path.join(dir, 'en/bonus.md');
  const edited = (await readFile(file, 'utf8')).replace('title: Bonus', 'title: Queued');

  const first = content.reload();
  await firstReadDone;
  await save(file, edited);
  const second = content.reload();
  const third = content.reload();
  release();

  const before = await first;
  t.equal(
    (before.getContentPage('en', 'bonus') as SectionPageData).page.title,
    'Bonus',
    'the running load read the old file',
  );
  const [latest, same] = await Promise.all([second, third]);
  t.equal(latest, same, 'requests during a load share the next one');
  t.equal(loads, 3, 'one more load, not two');
  t.equal(
    (latest.getContentPage('en', 'bonus') as SectionPageData).page.title,
    'Queued',
    'the queued load sees the edit',
  );
  t.equal(content.index, latest);
});
