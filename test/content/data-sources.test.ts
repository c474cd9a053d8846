import t from 'tap';
import type {
  ArticleData,
  ArticleListData,
  AuthorPageData,
  AuthorsPageData,
  ContentPageData,
  HomeData,
  SectionPageData,
  SiteTocPageData,
} from '../../contract/content.ts';
import type { Locale } from '../../contract/locales.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { existsSync } from 'node:fs';
import type { PageServerModule } from '../../lib/pages/page-server.ts';
import { buildContentApp, callSource, fixture, projectDir } from '../helpers/content.ts';

const root = fixture('content-basic');

const app = await buildContentApp({ root, env: 'production' });
t.teardown(() => app.close());

const article = (locale: Locale, slug: string) =>
  callSource(app, 'article', locale, `/asdas/${slug}`, { slug }) as Promise<ArticleData>;
const contentPage = (locale: Locale, rest: string) =>
  callSource(app, 'content', locale, `/${rest}`, { '*': rest }) as Promise<ContentPageData>;

t.test('a page with data or a form has its server half beside its component, holding just that', async (t) => {
  for (const route of pageRoutes) {
    const half = `client/${route.module.replace(/\.tsx$/, '.server.ts')}`;
    t.ok(existsSync(`${projectDir}/client/${route.module}`), `${route.id}: its component`);
    if (!route.data && !route.action) {
      t.notOk(existsSync(`${projectDir}/${half}`), `${route.id}: no server half`);
      continue;
    }
    const exports = (await import(`${projectDir}/${half}`)) as PageServerModule;
    t.equal(typeof exports.loader, route.data ? 'function' : 'undefined', `${half}: a loader iff data`);
    t.equal(typeof exports.action, route.action ? 'function' : 'undefined', `${half}: an action iff a form`);
  }
});

t.test('data is plain JSON', async (t) => {
  for (const [name, locale, path, params] of [
    ['home', 'th', '/', {}],
    ['articles', 'th', '/asdas', {}],
    ['article', 'th', '/asdas/second-post', { slug: 'second-post' }],
    ['content', 'th', '/table-of-content', { '*': 'table-of-content' }],
    ['content', 'en', '/author/ann-author', { '*': 'author/ann-author' }],
  ] as const) {
    const data = await callSource(app, name, locale, path, params);
    t.same(JSON.parse(JSON.stringify(data)), data, `${name} ${path}`);
  }
});

t.test('home', async (t) => {
  const home = (await callSource(app, 'home', 'en', '/')) as HomeData;
  t.equal(home.intro.title, 'Welcome');
  t.match(home.intro.html, /<h2 id="start-here">Start here<\/h2>/);
  t.same(home.intro.toc, [{ id: 'start-here', text: 'Start here', level: 2 }]);
  t.same(home.intro.author, { slug: 'ann-author', name: 'Ann Author', role: 'Editor', path: '/author/ann-author' });
  t.equal(home.intro.fallback, false);
  t.same(
    home.latestArticles.map((item) => item.slug),
    ['third-post', 'second-post', 'first-post', 'hostile-markup'],
  );
  t.same(home.seo.alternates, ['en', 'th']);
  t.equal(home.seo.path, '/');
  const thai = (await callSource(app, 'home', 'th', '/')) as HomeData;
  t.equal(thai.intro.title, 'ยินดีต้อนรับ');
  t.equal(thai.intro.path, '/th');
  t.same(thai.intro.author.path, '/th/author/ann-author', 'paths in Thai data are Thai');
  t.equal(thai.latestArticles[0]!.path, '/th/asdas/third-post');
});

t.test('article list: every article, newest first, with summaries', async (t) => {
  const list = (await callSource(app, 'articles', 'en', '/asdas')) as ArticleListData;
  t.equal(list.pageSize, 12);
  t.same(
    list.articles.map((item) => item.slug),
    ['third-post', 'second-post', 'first-post', 'hostile-markup'],
  );
  t.same(list.articles[1], {
    slug: 'second-post',
    path: '/asdas/second-post',
    title: 'Second post',
    description: 'Only in English.',
    author: { slug: 'bob-writer', name: 'Bob Writer', path: '/author/bob-writer' },
    published: '2026-02-15',
    updated: '2026-02-20',
    readingMinutes: 1,
    tags: ['games', 'maths'],
    fallback: false,
  });
  t.equal(list.seo.title, 'Articles');
  t.same(list.seo.breadcrumbs, [
    { name: 'Home', path: '/' },
    { name: 'Articles', path: '/asdas' },
  ]);
  const thai = (await callSource(app, 'articles', 'th', '/asdas')) as ArticleListData;
  t.same(
    thai.articles.map((item) => [item.slug, item.title, item.fallback]),
    [
      ['third-post', 'โพสต์ที่สาม', false],
      ['first-post', 'โพสต์แรก', false],
    ],
    'Thai lists only the articles written in Thai, never an English one in their place',
  );
  t.equal(thai.articles[0]!.author.name, 'แอน ผู้เขียน');
  t.equal(thai.seo.title, 'บทความ');
});

t.test('article: content, ToC, byline, previous/next', async (t) => {
  const data = await article('en', 'second-post');
  t.equal(data.article.title, 'Second post');
  t.match(data.article.html, '<h2 id="second">Second</h2>');
  t.same(data.article.toc, [{ id: 'second', text: 'Second', level: 2 }]);
  t.same(data.article.author, {
    slug: 'bob-writer',
    name: 'Bob Writer',
    role: 'Staff writer',
    path: '/author/bob-writer',
  });
  t.same(
    data.previous,
    { slug: 'first-post', title: 'First post', path: '/asdas/first-post' },
    'previous is the next older',
  );
  t.same(data.next, { slug: 'third-post', title: 'Third post', path: '/asdas/third-post' }, 'next is the next newer');
  const newest = await article('en', 'third-post');
  t.notOk('next' in newest, 'the newest has no next');
  const oldest = await article('en', 'hostile-markup');
  t.notOk('previous' in oldest, 'the oldest has no previous');
  t.same(data.seo, {
    title: 'Second post',
    description: 'Only in English.',
    path: '/asdas/second-post',
    alternates: ['en'],
    type: 'article',
    publishedTime: '2026-02-15',
    modifiedTime: '2026-02-20',
    author: { name: 'Bob Writer', path: '/author/bob-writer' },
    breadcrumbs: [
      { name: 'Home', path: '/' },
      { name: 'Articles', path: '/asdas' },
      { name: 'Second post', path: '/asdas/second-post' },
    ],
    tags: ['games', 'maths'],
  });
});

t.test('Thai fallback: English text, fallback: true, alternates only the real translations', async (t) => {
  const data = await article('th', 'second-post');
  t.equal(data.article.fallback, true);
  t.equal(data.article.title, 'Second post');
  t.equal(data.article.path, '/th/asdas/second-post');
  t.same(data.seo.alternates, ['en']);
  t.equal(data.seo.path, '/asdas/second-post');
  t.same(data.previous?.path, '/th/asdas/first-post', 'neighbours stay in Thai');
  t.same(data.next?.path, '/th/asdas/third-post');
  const translated = await article('th', 'third-post');
  t.equal(translated.article.fallback, false);
  t.same(
    translated.previous,
    { slug: 'first-post', title: 'โพสต์แรก', path: '/th/asdas/first-post' },
    'previous skips the English-only article between them',
  );
  const oldestThai = await article('th', 'first-post');
  t.equal(oldestThai.next?.path, '/th/asdas/third-post');
  t.notOk('previous' in oldestThai, 'no English-only article as a Thai previous');
  t.same(translated.seo.alternates, ['en', 'th']);
  t.equal(translated.article.toc[0]!.id, 'สัญญาณเตือน');

  const section = (await contentPage('th', 'only-english')) as SectionPageData;
  t.equal(section.kind, 'section');
  t.equal(section.page.fallback, true);
  t.equal(section.page.title, 'Only in English');
  t.same(section.seo.alternates, ['en']);
  const bonus = (await contentPage('th', 'bonus')) as SectionPageData;
  t.equal(bonus.page.fallback, false);
  t.equal(bonus.page.title, 'โบนัส');
  t.same(bonus.seo.alternates, ['en', 'th']);
});

t.test('sections, nested sections and their breadcrumbs', async (t) => {
  const bonus = (await contentPage('en', 'bonus')) as SectionPageData;
  t.equal(bonus.kind, 'section');
  t.same(Object.keys(bonus.page).sort(), [
    'author',
    'description',
    'fallback',
    'html',
    'path',
    'published',
    'readingMinutes',
    'title',
    'toc',
  ]);
  t.same(bonus.page.toc, [
    { id: 'bonus-in-short', text: 'Bonus in short', level: 2 },
    { id: 'wagering', text: 'Wagering', level: 3 },
  ]);
  const deep = (await contentPage('en', 'guides/deep')) as SectionPageData;
  t.equal(deep.page.title, 'A deep guide');
  t.same(
    deep.seo.breadcrumbs.map((crumb) => crumb.path),
    ['/', '/guides', '/guides/deep'],
  );
  const guides = (await contentPage('en', 'guides')) as SectionPageData;
  t.equal(guides.page.title, 'Guides', 'guides/index.md is /guides');
  const trailing = (await callSource(app, 'content', 'en', '/bonus/', { '*': 'bonus/' })) as SectionPageData;
  t.equal(trailing.page.title, 'Bonus', 'a trailing slash is the same page');
});

t.test('authors and an author', async (t) => {
  const authors = (await contentPage('en', 'author')) as AuthorsPageData;
  t.equal(authors.kind, 'authors');
  t.same(authors.authors, [
    {
      slug: 'ann-author',
      name: 'Ann Author',
      role: 'Editor',
      path: '/author/ann-author',
      avatar: 'AA',
      articleCount: 2,
      fallback: false,
    },
    {
      slug: 'bob-writer',
      name: 'Bob Writer',
      role: 'Staff writer',
      path: '/author/bob-writer',
      avatar: 'BW',
      articleCount: 2,
      fallback: false,
    },
  ]);
  const thai = (await contentPage('th', 'author')) as AuthorsPageData;
  t.same(
    thai.authors.map((author) => [author.name, author.path, author.fallback]),
    [
      ['แอน ผู้เขียน', '/th/author/ann-author', false],
      ['Bob Writer', '/th/author/bob-writer', true],
    ],
    'sorted by name as Thai sorts (Thai script first)',
  );
  const ann = (await contentPage('en', 'author/ann-author')) as AuthorPageData;
  t.equal(ann.kind, 'author');
  t.equal(
    ann.author.bioHtml,
    '<p>Ann edits the guides. She likes clear writing &#x26; short sentences.</p>',
    'bio is sanitized HTML',
  );
  t.same(
    ann.articles.map((item) => item.slug),
    ['third-post', 'first-post'],
  );
  t.equal(ann.seo.title, 'Ann Author');
  t.equal(ann.seo.description, 'Ann edits the guides. She likes clear writing & short sentences.');
  t.same(ann.seo.alternates, ['en', 'th']);
  const bobThai = (await contentPage('th', 'author/bob-writer')) as AuthorPageData;
  t.equal(bobThai.author.fallback, true);
  t.same(bobThai.seo.alternates, ['en']);
  t.same(bobThai.articles, [], 'his articles are English-only: none listed in Thai');
});

t.test('the site table of contents', async (t) => {
  const toc = (await contentPage('en', 'table-of-content')) as SiteTocPageData;
  t.equal(toc.kind, 'toc');
  t.same(
    toc.groups.map((group) => [group.id, group.title, group.path]),
    [
      ['sections', 'Pages', undefined],
      ['articles', 'Articles', '/asdas'],
      ['authors', 'Authors', '/author'],
    ],
  );
  t.same(
    toc.groups[0]!.items.map((item) => item.path),
    ['/', '/bonus', '/only-english', '/guides/deep', '/guides'],
  );
  t.same(
    toc.groups[1]!.items.map((item) => item.path),
    ['/asdas/third-post', '/asdas/second-post', '/asdas/first-post', '/asdas/hostile-markup'],
  );
  t.same(
    toc.groups[2]!.items.map((item) => item.path),
    ['/author/ann-author', '/author/bob-writer'],
  );
  const thai = (await contentPage('th', 'table-of-content')) as SiteTocPageData;
  t.equal(thai.seo.title, 'สารบัญ');
  t.ok(
    thai.groups.every((group) => group.items.every((item) => item.path.startsWith('/th'))),
    'every Thai path is under /th',
  );
  t.same(thai.groups[0]!.items.find((item) => item.path === '/th/only-english')?.fallback, true);
  t.same(
    thai.groups[1]!.items.map((item) => item.path),
    ['/th/asdas/third-post', '/th/asdas/first-post'],
    'articles: only those written in Thai',
  );
});

t.test('nothing to show is PageNotFoundError with the full path', async (t) => {
  const notFound = async (promise: Promise<unknown>, path: string) =>
    t.rejects(promise, { name: 'PageNotFoundError', message: `Page not found: ${path}`, path });
  await notFound(article('en', 'no-such-article'), '/asdas/no-such-article');
  await notFound(article('th', 'no-such-article'), '/th/asdas/no-such-article');
  await notFound(contentPage('en', 'foo/bar/baz'), '/foo/bar/baz');
  await notFound(contentPage('th', 'foo'), '/th/foo');
  await notFound(contentPage('en', 'author/nobody'), '/author/nobody');
  await notFound(contentPage('en', 'asdas/first-post/extra'), '/asdas/first-post/extra');
  await notFound(callSource(app, 'content', 'en', '/', { '*': '' }), '/');
  await notFound(callSource(app, 'article', 'en', '/asdas/', {}), '/asdas/');
});

t.test('drafts: never in production, shown (and marked) in development', async (t) => {
  await t.rejects(article('en', 'draft-post'), { name: 'PageNotFoundError' });
  const list = (await callSource(app, 'articles', 'en', '/asdas')) as ArticleListData;
  t.notOk(list.articles.some((item) => item.slug === 'draft-post'));

  const dev = await buildContentApp({ root, env: 'development', dev: true, watch: false });
  t.teardown(() => dev.close());
  const draft = (await callSource(dev, 'article', 'en', '/asdas/draft-post', { slug: 'draft-post' })) as ArticleData;
  t.equal(draft.article.draft, true);
  t.equal(draft.seo.noindex, true, 'a draft asks not to be indexed');
  const devList = (await callSource(dev, 'articles', 'en', '/asdas')) as ArticleListData;
  t.equal(devList.articles[0]!.slug, 'draft-post');
  t.notOk(dev.content.sitemapXml().includes('draft-post'), 'drafts are never in the sitemap');

  const hidden = await buildContentApp({ root, env: 'development', showDrafts: false });
  t.teardown(() => hidden.close());
  await t.rejects(callSource(hidden, 'article', 'en', '/asdas/draft-post', { slug: 'draft-post' }), {
    name: 'PageNotFoundError',
  });
  const forced = await buildContentApp({ root, env: 'production', showDrafts: true });
  t.teardown(() => forced.close());
  await t.rejects(
    callSource(forced, 'article', 'en', '/asdas/draft-post', { slug: 'draft-post' }),
    {
      name: 'PageNotFoundError',
    },
    'production ignores showDrafts',
  );
});

t.test('data is shared and frozen: one request cannot change another', async (t) => {
  const data = await article('en', 'first-post');
  t.ok(Object.isFrozen(data) && Object.isFrozen(data.article.tags));
  t.throws(() => {
    (data.article as { title: string }).title = 'changed';
  });
});

t.test('app.content.index answers the queries', async (t) => {
  const { index } = app.content;
  t.same(
    index.getArticleList('en')?.articles.map((item) => item.slug),
    ['third-post', 'second-post', 'first-post', 'hostile-markup'],
  );
  t.equal(index.getArticle('th', 'first-post')?.article.title, 'โพสต์แรก');
  t.equal(index.getHome('en')?.intro.title, 'Welcome');
  t.equal((index.getContentPage('en', 'author') as AuthorsPageData | undefined)?.authors.length, 2);
  t.match(app.content.version, /^[0-9a-f]{16}$/);
  t.same(index.issues, []);
});
