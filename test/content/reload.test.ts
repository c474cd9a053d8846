import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import type { ArticleData, SectionPageData } from '../../lib/content/types.ts';
import { buildContentApp, callSource, copyFixture, eventually } from './helpers.ts';

for (const poll of [false, true]) {
  t.test(`development reloads edits without a restart (${poll ? 'polling' : 'fs.watch'})`, async (t) => {
    const { dir, cleanup } = await copyFixture('content-basic');
    const app = await buildContentApp({ root: dir, env: 'development', dev: true, poll });
    t.teardown(async () => {
      await app.close();
      await cleanup();
    });
    const bonus = async () => ((await callSource(app, 'contentPage', 'en', '/bonus', { '*': 'bonus' })) as SectionPageData).page.title;
    t.equal(await bonus(), 'Bonus');
    const version = app.content.version;

    const file = path.join(dir, 'en/bonus.md');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('title: Bonus', 'title: Bonus, edited'));
    await eventually(async () => (await bonus()) === 'Bonus, edited');
    t.pass('an edit shows up');
    t.not(app.content.version, version, 'the content version changes');

    // A broken edit: the page shows the problem, the rest of the site keeps working.
    await writeFile(file, original.replace('published: 2026-01-02', 'published: yesterday'));
    await eventually(() => app.content.issues.length === 1);
    await t.rejects(callSource(app, 'contentPage', 'en', '/bonus', { '*': 'bonus' }), {
      name: 'ContentError',
      message: /en\/bonus\.md: "published" must be a date \(YYYY-MM-DD\)/,
    });
    const first = (await callSource(app, 'article', 'en', '/asdas/first-post', { slug: 'first-post' })) as ArticleData;
    t.equal(first.article.title, 'First post', 'other pages still work');

    // Fixed again.
    await writeFile(file, original);
    await eventually(() => app.content.issues.length === 0);
    t.equal(await bonus(), 'Bonus');

    // A new article appears, a deleted one disappears.
    await writeFile(
      path.join(dir, 'en/asdas/fourth-post.md'),
      '---\ntitle: Fourth post\ndescription: New.\nauthor: bob-writer\npublished: 2026-05-01\n---\n\n## New\n',
    );
    await rm(path.join(dir, 'en/asdas/first-post.md'));
    await eventually(() => app.content.listArticles('en')[0]?.slug === 'fourth-post');
    t.notOk(app.content.listArticles('en').some((item) => item.slug === 'first-post'));
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
  const data = (await callSource(app, 'contentPage', 'en', '/bonus', { '*': 'bonus' })) as SectionPageData;
  t.equal(data.page.title, 'Bonus');
});

t.test('the default root is the project content folder', async (t) => {
  const app = await buildContentApp();
  t.teardown(() => app.close());
  t.ok(app.content.root.endsWith(`${path.sep}content`));
  t.ok(app.content.listArticles('en').length >= 12);
});

t.test('a missing content folder is a clear start-up error', async (t) => {
  await t.rejects(buildContentApp({ root: '/nonexistent/content' }), { message: /cannot read the content folder/ });
});

t.test('a reload asked for during a load runs again after it', async (t) => {
  const { dir, cleanup } = await copyFixture('content-basic');
  const app = await buildContentApp({ root: dir, watch: false });
  t.teardown(async () => {
    await app.close();
    await cleanup();
  });
  const file = path.join(dir, 'en/bonus.md');
  const edited = (await readFile(file, 'utf8')).replace('title: Bonus', 'title: Queued');
  const first = app.content.reload();
  // Write then rename, as editors save: the load in progress sees the old file or the new one,
  // never a half-written one.
  await writeFile(`${file}.tmp`, edited);
  await rename(`${file}.tmp`, file);
  const second = app.content.reload();
  const third = app.content.reload();
  await first;
  const [latest, same] = await Promise.all([second, third]);
  t.equal(latest, same, 'requests during a load share the next one');
  t.equal((latest.getContentPage('en', 'bonus') as SectionPageData).page.title, 'Queued');
  t.equal(app.content.index, latest);
});
