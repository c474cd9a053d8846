import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { loadContent } from '../../lib/content/loader.ts';
import { ContentError, formatIssue } from '../../lib/content/snapshot.ts';
import { ContentIndex } from '../../lib/content/content-index.ts';
import { checkPageFrontmatter } from '../../lib/content/schema.ts';
import type { AuthorsPageData } from '../../contract/content.ts';
import { localePath, locales } from '../../contract/locales.ts';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import { buildContentApp, callSource, copyFixture, fixture, realContent } from '../helpers/content.ts';

const invalid = fixture('content-invalid');
const file = (rel: string) => `test/fixtures/content-invalid/${rel}`;

t.test('every problem names its file and field', async (t) => {
  const snapshot = await loadContent(invalid);
  const lines = snapshot.issues.map(formatIssue);
  const expected = [
    `${file('en/asdas/bad-date.md')}: "published" must be a date (YYYY-MM-DD)`,
    `${file('en/asdas/unknown-field.md')}: "category" is not a known field`,
    `${file('en/asdas/long-description.md')}: "description" must be at most 200 characters (it has 249)`,
    `${file('en/asdas/updated-before-published.md')}: "updated" (2026-02-01) must not be before "published" (2026-03-01)`,
    `${file('en/asdas/wrong-types.md')}: "tags" must be a list of words`,
    `${file('en/asdas/wrong-types.md')}: "draft" must be true or false`,
    `${file('en/asdas/wrong-types.md')}: "order" must be a whole number`,
    `${file('en/asdas/unknown-author.md')}: "author" names an unknown author "nobody-here"`,
    `${file('en/asdas/Bad_Slug.md')}: "Bad_Slug" is not a valid article slug`,
    `${file('en/asdas/no-frontmatter.md')}: the file must start with a frontmatter block`,
    `${file('en/with-h1.md')}: the body must not contain a level-1 heading`,
    `${file('th/asdas/bad-yaml.md')}: the frontmatter is not valid YAML`,
    `${file('authors/no-role.en.md')}: "role" is required`,
  ];
  for (const line of expected)
    t.ok(
      lines.some((found) => found.startsWith(line)),
      line,
    );
  t.equal(lines.length, expected.length, 'nothing else is reported');
  const fields = Object.fromEntries(
    snapshot.issues.map((issue) => [`${path.basename(issue.file)}:${issue.field}`, issue.pagePath]),
  );
  t.equal(fields['bad-date.md:published'], '/asdas/bad-date', 'the issue knows the page it breaks');
  t.equal(fields['bad-yaml.md:frontmatter'], '/th/asdas/bad-yaml');
  t.equal(fields['no-role.en.md:role'], '/author/no-role');
  t.same(snapshot.pages.map((page) => page.path).sort(), ['/', '/asdas/good-article'], 'valid files still load');
});

t.test('frontmatter schema details', async (t) => {
  const base = { title: 'T', description: 'D', author: 'a', published: '2026-01-01' };
  const ok = checkPageFrontmatter(base);
  t.ok(ok.ok);
  if (ok.ok) t.same(ok.value, { ...base, tags: [], draft: false }, 'defaults are filled');
  const bad = (data: Record<string, unknown>) => {
    const checked = checkPageFrontmatter({ ...base, ...data });
    return checked.ok ? [] : checked.problems.map((problem) => `${problem.field}: ${problem.message}`);
  };
  t.same(bad({ published: '2026-1-5' }), ['published: "published" must be a date (YYYY-MM-DD)']);
  t.same(bad({ published: '2026-01-05T10:00:00Z' }), ['published: "published" must be a date (YYYY-MM-DD)']);
  t.same(bad({ updated: null }), ['updated: "updated" must be a date (YYYY-MM-DD)']);
  t.same(bad({ description: 'x'.repeat(200) }), [], '200 characters are fine');
  t.same(bad({ title: '' }), ['title: "title" must not be empty']);
  t.same(bad({ tags: ['a', 'a'] }), ['tags: "tags" lists the same value twice']);
  t.same(bad({ tags: ['a', 3] }), ['tags: "tags" (every item) must be text']);
  t.same(bad({ image: 'javascript:alert(1)' }), ['image: "image" must be a root-relative path (/...) or an https URL']);
  t.same(bad({ image: '//evil.example/x.png' }), [
    'image: "image" must be a root-relative path (/...) or an https URL',
  ]);
  t.same(bad({ image: '/images/share.png' }), []);
  t.same(bad({ author: 'Not A Slug' }), ['author: "author" must be an author slug (lowercase words joined by "-")']);
  const missing = checkPageFrontmatter({});
  t.same(missing.ok ? [] : missing.problems.map((problem) => problem.field).sort(), [
    'author',
    'description',
    'published',
    'title',
  ]);
  const notMapping = checkPageFrontmatter(['a list']);
  t.same(notMapping.ok ? [] : notMapping.problems.map((problem) => problem.field), ['frontmatter']);
});

t.test('a production start stops on bad content with the file and the field', async (t) => {
  const error = await buildContentApp({ root: invalid }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  t.type(error, ContentError);
  const message = (error as Error).message;
  t.match(message, /^Invalid content \(13 problems\):/);
  t.match(message, `${file('en/asdas/bad-date.md')}: "published" must be a date (YYYY-MM-DD)`);
  t.match(message, `${file('en/asdas/unknown-author.md')}: "author" names an unknown author "nobody-here"`);
});

t.test('a single problem reads as one line', async (t) => {
  const { dir, cleanup } = await copyFixture('content-basic');
  t.teardown(cleanup);
  await writeFile(
    path.join(dir, 'en/asdas/first-post.md'),
    '---\ntitle: x\ndescription: y\nauthor: ann-author\npublished: soon\n---\n\n## x\n',
  );
  const error = await buildContentApp({ root: dir }).catch((caught: unknown) => caught);
  t.match(
    (error as Error).message,
    /^Invalid content: .*en\/asdas\/first-post\.md: "published" must be a date \(YYYY-MM-DD\)$/,
  );
});

t.test('in development bad content does not stop the start; the page shows the problem', async (t) => {
  const app = await buildContentApp({ root: invalid, env: 'development', dev: true, watch: false });
  t.teardown(() => app.close());
  t.equal(app.content.index.issues.length, 13);
  await t.rejects(callSource(app, 'article', 'en', '/asdas/bad-date', { slug: 'bad-date' }), {
    name: 'ContentError',
    message: /content-invalid\/en\/asdas\/bad-date\.md: "published" must be a date \(YYYY-MM-DD\)/,
  });
  await t.rejects(
    callSource(app, 'article', 'th', '/asdas/bad-date', { slug: 'bad-date' }),
    {
      name: 'ContentError',
      message: /bad-date\.md/,
    },
    'the Thai address that would fall back to it shows it too',
  );
  await t.rejects(callSource(app, 'article', 'th', '/asdas/bad-yaml', { slug: 'bad-yaml' }), {
    message: /th\/asdas\/bad-yaml\.md: the frontmatter is not valid YAML/,
  });
  await t.rejects(callSource(app, 'content', 'en', '/with-h1', { '*': 'with-h1' }), { message: /level-1 heading/ });
  await t.rejects(callSource(app, 'content', 'en', '/author/no-role', { '*': 'author/no-role' }), {
    message: /"role" is required/,
  });
  const good = (await callSource(app, 'article', 'en', '/asdas/good-article', { slug: 'good-article' })) as {
    article: { title: string };
  };
  t.equal(good.article.title, 'A good article', 'valid pages still work');
  await t.rejects(callSource(app, 'article', 'en', '/asdas/nothing', { slug: 'nothing' }), {
    name: 'PageNotFoundError',
    message: 'Page not found: /asdas/nothing',
  });
});

t.test('the real content folder', async (t) => {
  const snapshot = await loadContent(realContent);
  t.same(snapshot.issues.map(formatIssue), [], 'no validation problems');
  const production = new ContentIndex(snapshot, { showDrafts: false });
  const english = production.getArticleList('en')!.articles;
  const thai = production.getArticleList('th')!.articles;
  t.ok(english.length >= 12, `at least 12 published articles (${english.length})`);
  t.ok(new Set(english.map((article) => article.author.slug)).size >= 3, 'by at least 3 authors');
  t.ok(thai.length >= 12, 'at least 12 in Thai');
  t.ok(english.length > thai.length, 'an English-only article exists');
  t.notOk(
    thai.some((article) => article.fallback),
    'Thai lists only articles written in Thai',
  );
  // Every tag an article carries has a name in each language (the page shows names, not keys).
  for (const tag of new Set(snapshot.pages.flatMap((page) => page.meta.tags))) {
    t.type(en.article.tagNames[tag as keyof typeof en.article.tagNames], 'string', `tag "${tag}" is named in English`);
    t.type(th.article.tagNames[tag as keyof typeof th.article.tagNames], 'string', `tag "${tag}" is named in Thai`);
  }
  t.notOk(
    english.some((article) => article.draft),
    'no drafts in production',
  );
  const drafts = snapshot.pages.filter((page) => page.meta.draft);
  t.ok(drafts.length >= 1, 'the sample has a draft');
  for (const draft of drafts) t.notOk(production.getArticle('en', draft.slug ?? ''), `${draft.file} is not served`);
  for (const locale of locales) {
    t.ok(production.getHome(locale)?.intro && !production.getHome(locale)!.intro.fallback, `home intro in ${locale}`);
    for (const section of ['bonus', 'terms-apply', 'play-responsibility']) {
      const page = production.getContentPage(locale, section);
      t.ok(page?.kind === 'section' && !page.page.fallback, `${locale} /${section} exists in its own language`);
    }
    const authors = (production.getContentPage(locale, 'author') as AuthorsPageData | undefined)?.authors ?? [];
    t.ok(authors.length >= 3, `${locale}: at least 3 authors`);
    t.ok(
      authors.every((author) => !author.fallback),
      `${locale}: every author has a bio in the language`,
    );
  }
  // Internal links lead to pages that exist, in the page's own language.
  const addresses = new Set(
    production.sitemap.flatMap((entry) =>
      locales.filter((locale) => entry.locales[locale]).map((locale) => localePath(locale, entry.path)),
    ),
  );
  for (const locale of locales) for (const app of ['/login', '/registration']) addresses.add(localePath(locale, app));
  for (const page of snapshot.pages) {
    for (const [, href] of page.html.matchAll(/href="(\/[^"#]*)/g)) {
      t.ok(addresses.has(href!), `${page.file} links to ${href}, which exists`);
      if (page.locale === 'th') t.ok(href!.startsWith('/th'), `${page.file}: ${href} stays in Thai`);
    }
  }
  for (const page of snapshot.pages) {
    t.ok(page.toc.length > 0, `${page.file} has sections`);
    t.ok(
      page.toc.every((entry) => entry.id),
      `${page.file}: every heading has an id`,
    );
  }
});
