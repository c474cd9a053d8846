import { readdirSync } from 'node:fs';
import t from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import {
  responsiblePlayTag,
  type ArticleData,
  type ArticleListData,
  type AuthorPageData,
  type HomeData,
  type SiteTocPageData,
} from '../../contract/content.ts';
import { matchesIfNoneMatch, strongEtag } from '../../lib/etag.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

// Content pages and their `_payload.json`, on the production build (run `node scripts/build.mjs` first).
const { app, close } = await startTestApp();
t.teardown(close);

const page = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, ...headers } });

interface PayloadJson {
  buildId: string;
  data: unknown;
}

const decode = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The loader data react-router hydrates the leaf route with, from the page's HTML. */
function hydrationLeafData(html: string): { id: string; data: unknown } {
  const state = pageStateOf(html).router as { loaderData: Record<string, unknown> } | undefined;
  if (!state) throw new Error('no hydration data in the page');
  const ids = Object.keys(state.loaderData);
  const id = ids[ids.length - 1]!;
  return { id, data: state.loaderData[id] };
}

/** The text of an element found by a `data-testid`, tags stripped. */
function textOf(html: string, testId: string): string | undefined {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return match ? decode(match[1]!.replace(/<[^>]+>/g, '')) : undefined;
}

const count = (html: string, needle: string) => html.split(needle).length - 1;

const payloadPages = [
  '/',
  '/asdas',
  '/asdas/rtp-explained',
  '/bonus',
  '/terms-apply',
  '/play-responsibility',
  '/author',
  '/author/nicha-srisuk',
  '/table-of-content',
  '/login',
  '/th',
  '/th/asdas',
  '/th/asdas/rtp-explained',
  '/th/asdas/how-game-fairness-is-tested',
  '/th/bonus',
  '/th/author/daniel-hart',
  '/th/table-of-content',
];

t.test('a payload is exactly the data the page renders with, plus the build id', async (t) => {
  for (const path of payloadPages) {
    const html = await page(path);
    t.equal(html.statusCode, 200, `${path} renders`);
    const { id, data } = hydrationLeafData(html.body);
    const build = /data-build-id="([^"]+)"/.exec(html.body)?.[1];
    const response = await app.inject({ url: `${path === '/' ? '' : path}/_payload.json?build=${build}` });
    t.equal(response.statusCode, 200, `${path} has a payload`);
    t.match(response.headers['content-type'], /^application\/json; charset=utf-8/);
    t.equal(
      response.headers['cache-control'],
      'public, max-age=0, s-maxage=5, stale-while-revalidate=30',
      'shared caches may keep it briefly',
    );
    const payload = response.json<PayloadJson>();
    t.same(Object.keys(payload).sort(), ['buildId', 'data'], 'build id and data, nothing else');
    t.equal(payload.buildId, /data-build-id="([^"]+)"/.exec(html.body)?.[1], 'the build id of the HTML');
    t.same(payload.data, data, `${path}: payload data equals the hydration data of ${id}`);
  }
});

t.test('ETag: strong, a hash of the body, 304 when it matches', async (t) => {
  const first = await app.inject({ url: '/asdas/rtp-explained/_payload.json' });
  const etag = first.headers.etag as string;
  t.match(etag, /^"[A-Za-z0-9_-]{20,}"$/, 'a strong ETag');
  t.equal(etag, strongEtag(first.body), 'the hash of the body');

  const again = await app.inject({ url: '/asdas/rtp-explained/_payload.json' });
  t.equal(again.headers.etag, etag, 'the same body has the same ETag');

  const notModified = await app.inject({
    url: '/asdas/rtp-explained/_payload.json',
    headers: { 'if-none-match': etag },
  });
  t.equal(notModified.statusCode, 304);
  t.equal(notModified.body, '', 'no body');
  t.equal(notModified.headers.etag, etag);
  t.equal(notModified.headers['cache-control'], 'no-cache', 'asked without the build: browsers only');

  for (const header of [`W/${etag}`, `"other", ${etag}`, '*']) {
    const response = await app.inject({
      url: '/asdas/rtp-explained/_payload.json',
      headers: { 'if-none-match': header },
    });
    t.equal(response.statusCode, 304, `If-None-Match: ${header}`);
  }
  const stale = await app.inject({
    url: '/asdas/rtp-explained/_payload.json',
    headers: { 'if-none-match': '"stale"' },
  });
  t.equal(stale.statusCode, 200, 'another ETag gets the body');
  t.same(stale.json(), first.json());

  const head = await app.inject({
    method: 'HEAD',
    url: '/asdas/rtp-explained/_payload.json',
    headers: { 'if-none-match': etag },
  });
  t.equal(head.statusCode, 304, 'HEAD revalidates too');
});

t.test('every page has its own ETag, in each language', async (t) => {
  const etags = new Map<string, string>();
  for (const path of payloadPages) {
    const response = await app.inject({ url: `${path === '/' ? '' : path}/_payload.json` });
    etags.set(path, response.headers.etag as string);
  }
  t.equal(new Set(etags.values()).size, payloadPages.length, 'no two pages share an ETag');
  t.not(etags.get('/asdas/rtp-explained'), etags.get('/th/asdas/rtp-explained'));
});

t.test('the ETag follows the content: unchanged content keeps it, a different body changes it', async (t) => {
  const before = await app.inject({ url: '/bonus/_payload.json' });
  await app.content.reload();
  const after = await app.inject({ url: '/bonus/_payload.json' });
  t.equal(after.headers.etag, before.headers.etag, 'a reload of the same files gives the same ETag');
  t.equal(after.body, before.body);
  const edited = before.body.replace('How bonuses work', 'How bonuses work (edited)');
  t.not(strongEtag(edited), strongEtag(before.body), 'an edit changes the hash');
  t.notOk(matchesIfNoneMatch(undefined, strongEtag(edited)));
  t.notOk(matchesIfNoneMatch(strongEtag(before.body), strongEtag(edited)));
});

t.test('the query string never changes a payload', async (t) => {
  const plain = await app.inject({ url: '/asdas/_payload.json' });
  for (const query of ['?page=2&x=1', '?page=abc', '?page=999', '?redirect=/elsewhere']) {
    const response = await app.inject({ url: `/asdas/_payload.json${query}` });
    t.equal(response.statusCode, 200, query);
    t.equal(response.body, plain.body, `${query}: the same body`);
    t.equal(response.headers.etag, plain.headers.etag, `${query}: the same ETag`);
  }
  const list = plain.json<PayloadJson>().data as ArticleListData;
  t.ok(list.articles.length > list.pageSize, 'the list payload holds every article, not a page of them');
});

t.test('a path with no page: the 404 JSON', async (t) => {
  for (const [url, message] of [
    ['/no/such/page/_payload.json', 'Page not found: /no/such/page'],
    ['/th/no/such/page/_payload.json', 'Page not found: /th/no/such/page'],
    ['/asdas/no-such-article/_payload.json', 'Page not found: /asdas/no-such-article'],
    ['/author/nobody/_payload.json', 'Page not found: /author/nobody'],
  ] as const) {
    const response = await app.inject({ url });
    t.equal(response.statusCode, 404, url);
    t.same(response.json(), { statusCode: 404, message, fatal: false });
    t.notOk(response.headers.etag, 'errors carry no ETag');
  }
});

t.test('Thai payloads carry the Thai text and locale-aware paths', async (t) => {
  const home = (await app.inject({ url: '/th/_payload.json' })).json<PayloadJson>().data as HomeData;
  t.equal(home.intro.title, 'ยินดีต้อนรับ');
  t.ok(home.latestArticles.every((article) => article.path.startsWith('/th/asdas/')));
  const article = (await app.inject({ url: '/th/asdas/rtp-explained/_payload.json' })).json<PayloadJson>()
    .data as ArticleData;
  t.equal(article.article.title, 'RTP คืออะไร');
  t.equal(article.article.fallback, false);
  t.equal(article.article.author.path, '/th/author/daniel-hart');
  const fallback = (
    await app.inject({ url: '/th/asdas/how-game-fairness-is-tested/_payload.json' })
  ).json<PayloadJson>().data as ArticleData;
  t.equal(fallback.article.fallback, true, 'the English-only article is a fallback in Thai');
  t.equal(fallback.article.title, 'How game fairness is tested');
});

t.test('Thai lists and neighbours name only the articles written in Thai', async (t) => {
  const thaiSlugs = new Set(
    readdirSync(new URL('../../content/th/asdas/', import.meta.url)).map((file) => file.replace(/\.md$/, '')),
  );
  const english = (await app.inject({ url: '/asdas/_payload.json' })).json<PayloadJson>().data as ArticleListData;
  const englishOnly = english.articles.filter((article) => !thaiSlugs.has(article.slug));
  t.ok(englishOnly.length > 0, 'the real content has an English-only article (how-game-fairness-is-tested)');
  const thaiArticleLinks = (html: string) =>
    [...html.matchAll(/href="\/th\/asdas\/([a-z0-9-]+)"/g)].map((match) => match[1]!);
  const pages = ['/th/asdas', '/th/asdas?page=2', '/th', '/th/table-of-content'];
  for (const author of new Set(english.articles.map((article) => article.author.slug)))
    pages.push(`/th/author/${author}`);
  for (const slug of english.articles.map((article) => article.slug)) pages.push(`/th/asdas/${slug}`);
  for (const path of pages) {
    const response = await page(path);
    t.equal(response.statusCode, 200, path);
    const linked = thaiArticleLinks(response.body).filter((slug) => !thaiSlugs.has(slug));
    t.same(linked, [], `${path}: links no English-only article`);
  }
  const list = (await app.inject({ url: '/th/asdas/_payload.json' })).json<PayloadJson>().data as ArticleListData;
  t.same(
    list.articles.map((article) => article.slug).sort(),
    [...thaiSlugs].sort(),
    'the Thai list: every Thai article',
  );
  const shown = (await page('/th/asdas/how-game-fairness-is-tested')).body;
  t.match(shown, /data-testid="fallback-note"/, 'the English-only article keeps its page, with the note');
  t.match(shown, /data-testid="article-(prev|next)"/, 'and neighbours written in Thai');
});

t.test('responsible-play pages end without a Play prompt; other articles keep theirs', async (t) => {
  const mainOf = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
  const playIn = (main: string) =>
    /data-testid="play-cta"|action="(\/th)?\/play"|href="(\/th)?\/play(\?[^"]*)?"/.test(main);
  let responsible = 0;
  for (const locale of ['en', 'th'] as const) {
    const base = locale === 'en' ? '' : '/th';
    const list = (await app.inject({ url: `${base}/asdas/_payload.json` })).json<PayloadJson>().data as ArticleListData;
    for (const article of list.articles) {
      const main = mainOf((await page(article.path)).body);
      t.match(main, /<h1/, `${article.path}: its main content`);
      if (article.tags.includes(responsiblePlayTag)) {
        responsible += 1;
        t.notOk(playIn(main), `${article.path} (responsible play): no Play prompt, button or link`);
      } else t.ok(playIn(main), `${article.path}: ends with the Play prompt`);
    }
    const section = mainOf((await page(`${base}/play-responsibility`)).body);
    t.match(section, /<h1/, `${base}/play-responsibility: a main`);
    t.notOk(playIn(section), `${base}/play-responsibility: no Play prompt, button or link`);
  }
  t.ok(responsible >= 6, `responsible-play articles in both languages (${responsible})`);
});

t.test('drafts are never served in production', async (t) => {
  t.equal((await page('/asdas/upcoming-live-tables')).statusCode, 404);
  t.equal((await app.inject({ url: '/asdas/upcoming-live-tables/_payload.json' })).statusCode, 404);
  const list = (await app.inject({ url: '/asdas/_payload.json' })).json<PayloadJson>().data as ArticleListData;
  t.notOk(
    list.articles.some((article) => article.slug === 'upcoming-live-tables'),
    'not in the list',
  );
  t.notOk(
    list.articles.some((article) => article.draft),
    'nothing marked draft',
  );
  const html = (await page('/table-of-content')).body;
  t.notMatch(html, /upcoming-live-tables/, 'not in the site table of contents');
});

t.test('the article list: newest first, paginated with ?page=N', async (t) => {
  for (const locale of ['en', 'th'] as const) {
    const base = locale === 'en' ? '/asdas' : '/th/asdas';
    const list = (await app.inject({ url: `${base}/_payload.json` })).json<PayloadJson>().data as ArticleListData;
    const dates = list.articles.map((article) => article.published);
    t.same(dates, [...dates].sort().reverse(), `${locale}: newest first`);
    const pageCount = Math.ceil(list.articles.length / list.pageSize);
    t.ok(pageCount >= 2, `${locale}: more than one page`);

    const first = await page(base);
    t.equal(first.statusCode, 200);
    t.equal(count(first.body, 'data-testid="article-card"'), list.pageSize, 'a full first page');
    t.ok(first.body.includes(`href="${list.articles[0]!.path}"`), 'the newest article is on page 1');
    t.match(first.body, new RegExp(`<a rel="next"[^>]*href="${base}\\?page=2"`), 'rel=next to page 2');
    t.notMatch(first.body, /rel="prev"/, 'no previous page on page 1');
    t.match(first.body, /aria-current="page"[^>]*>1</, 'page 1 is the current one');

    const explicitFirst = await page(`${base}?page=1`);
    t.equal(explicitFirst.statusCode, 200, '?page=1');
    t.equal(count(explicitFirst.body, 'data-testid="article-card"'), list.pageSize);

    const last = await page(`${base}?page=${pageCount}`);
    t.equal(last.statusCode, 200, 'the last page');
    const onLast = list.articles.length - (pageCount - 1) * list.pageSize;
    t.equal(count(last.body, 'data-testid="article-card"'), onLast, 'the rest of the articles on the last page');
    t.ok(last.body.includes(`href="${list.articles.at(-1)!.path}"`), 'the oldest article is on the last page');
    t.match(last.body, /<a rel="prev"/, 'rel=prev on the last page');
    t.notMatch(last.body, /rel="next"/);
    t.match(last.body, new RegExp(`aria-current="page"[^>]*>${pageCount}<`));

    const tooFar = await page(`${base}?page=${pageCount + 1}`);
    t.equal(tooFar.statusCode, 404, 'past the end is a 404');
    t.match(tooFar.body, /<title>(Page not found|ไม่พบหน้านี้) \(404\)/, 'the 404 page');
    t.match(tooFar.body, /data-testid="inline-error"/, 'shown inside the layout');

    for (const bad of ['0', 'abc', '-1', '1.5', '']) {
      const response = await page(`${base}?page=${bad}`);
      t.equal(response.statusCode, 400, `page=${bad} is a 400`);
      const said = (locale === 'en' ? en : th).error.details.badPageNumber.replace('{{value}}', bad);
      t.equal(textOf(response.body, 'error-message'), said, `in ${locale}, translated`);
      t.match(response.body, /<html lang=/, 'an HTML page, not a bare error');
    }
  }
});

t.test('the article page: byline, dates, reading time, tags, ToC, neighbours, JSON-LD', async (t) => {
  const response = await page('/asdas/rtp-explained');
  const html = decode(response.body);
  const { article, previous, next } = hydrationLeafData(response.body).data as ArticleData;
  t.match(html, /<h1>RTP explained<\/h1>/);
  t.match(
    html,
    /data-testid="byline-author" href="\/author\/daniel-hart"|href="\/author\/daniel-hart"[^>]*data-testid="byline-author"/,
  );
  t.match(html, /<time dateTime="2026-02-09">9 February 2026<\/time>/, 'published, formatted');
  t.match(html, /<time dateTime="2026-04-20">20 April 2026<\/time>/, 'updated, formatted');
  t.match(html, new RegExp(`${article.readingMinutes} min read`));
  t.same(
    [...html.matchAll(/<li class="tag">([^<]*)<\/li>/g)].map((match) => match[1]),
    article.tags.map((tag) => en.article.tagNames[tag as keyof typeof en.article.tagNames]),
    'each tag by its name',
  );

  // The table of contents: every h2/h3 as an anchor to the heading's id, h3 nested.
  t.ok(article.toc.length >= 3);
  for (const entry of article.toc) {
    t.ok(html.includes(`href="#${entry.id}"`), `ToC links #${entry.id}`);
    t.match(html, new RegExp(`<h${entry.level} id="${entry.id}"`), `heading ${entry.id} carries its id`);
  }
  const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  const firstH3 = article.toc.find((entry) => entry.level === 3)!;
  t.match(toc, new RegExp(`<ol><li><a href="#${firstH3.id}"`), 'h3 entries are a nested list');

  if (previous) t.match(html, new RegExp(`rel="prev"[^>]*href="${previous.path}"`), 'previous article');
  if (next) t.match(html, new RegExp(`rel="next"[^>]*href="${next.path}"`), 'next article');
  t.ok(previous || next);

  const blocks = [...response.body.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
  const ofType = (type: string) => blocks.find((block) => block['@type'] === type);
  const ld = ofType('Article') as
    { headline: string; author: { '@type': string; name: string; url: string } } | undefined;
  t.ok(ld, 'an Article');
  t.equal(ld?.headline, 'RTP explained');
  t.equal(ld?.author['@type'], 'Person', 'its author is a Person');
  t.equal(ld?.author.name, article.author.name);
  t.match(ld?.author.url, /\/author\/daniel-hart$/);
  const crumbs = ofType('BreadcrumbList') as { itemListElement: { position: number; name: string }[] } | undefined;
  t.same(
    crumbs?.itemListElement.map((item) => item.name),
    ['Home', 'Articles', 'RTP explained'],
    'a BreadcrumbList',
  );
  t.ok(ofType('WebSite'), 'a WebSite');
});

t.test('Thai dates use the Buddhist calendar', async (t) => {
  const html = decode((await page('/th/asdas/rtp-explained')).body);
  t.match(html, /<time dateTime="2026-02-09">9 กุมภาพันธ์ 2569<\/time>/);
  t.match(html, /อ่าน \d+ นาที/);
  t.match(html, /<h1>RTP คืออะไร<\/h1>/);
});

t.test('a Thai address showing the English text says so', async (t) => {
  const html = decode((await page('/th/asdas/how-game-fairness-is-tested')).body);
  t.equal(textOf(html, 'fallback-note'), 'หน้านี้ยังไม่มีฉบับภาษาไทย จึงแสดงเนื้อหาเป็นภาษาอังกฤษไปก่อน');
  t.match(html, /<div class="prose" lang="en"/, 'the English text is marked lang="en"');
  t.match(html, /<div lang="en"><h1>How game fairness is tested<\/h1>/, 'so is the title');
  t.match(html, /<html lang="th"/, 'the page itself stays Thai');

  for (const path of ['/asdas/how-game-fairness-is-tested', '/th/asdas/rtp-explained', '/th/bonus']) {
    const other = (await page(path)).body;
    t.notMatch(other, /data-testid="fallback-note"/, `${path}: no note`);
    t.notMatch(other, /class="prose" lang="en"/);
  }
});

t.test('home: introduction, latest articles and the entry points', async (t) => {
  for (const [path, prefix] of [
    ['/', ''],
    ['/th', '/th'],
  ] as const) {
    const response = await page(path);
    const data = hydrationLeafData(response.body).data as HomeData;
    const html = decode(response.body);
    t.match(html, new RegExp(`<h1>${data.intro.title}</h1>`));
    t.match(html, /class="prose home-intro"/);
    t.equal(count(html, 'data-testid="article-card"'), data.latestArticles.length, 'the latest articles');
    t.equal(data.latestArticles.length, 6, 'six: two full rows of three on a laptop');
    for (const article of data.latestArticles) t.ok(html.includes(`href="${article.path}"`));
    for (const [entry, target] of [
      ['bonus', '/bonus'],
      ['play_responsibility', '/play-responsibility'],
      ['registration', '/registration'],
    ]) {
      const tag = new RegExp(`<a[^>]*data-entry="${entry}"[^>]*>`).exec(html)?.[0] ?? '';
      t.match(tag, `href="${prefix}${target}"`, `${path}: entry point ${entry}`);
    }
  }
});

t.test('sections get their table of contents; author pages and the site ToC', async (t) => {
  const bonus = decode((await page('/bonus')).body);
  t.match(bonus, /<h1>How bonuses work<\/h1>/);
  t.match(bonus, /<nav class="toc"/, 'a section with headings has a ToC');
  t.match(bonus, /Last updated(<!-- -->)? <time/);

  const authors = decode((await page('/th/author')).body);
  t.equal(count(authors, 'data-testid="author-card"'), 3, 'three authors');
  t.match(authors, /class="avatar" aria-hidden="true">NS</, 'avatar initials');
  t.match(authors, /\d+ บทความ/, 'article count in Thai');

  const authorResponse = await page('/author/nicha-srisuk');
  const author = hydrationLeafData(authorResponse.body).data as AuthorPageData;
  const authorHtml = decode(authorResponse.body);
  t.match(authorHtml, /<h1>Nicha Srisuk<\/h1>/);
  t.match(authorHtml, /class="prose author-bio"/, 'the bio');
  t.ok(author.articles.length > 0);
  t.equal(count(authorHtml, 'data-testid="article-card"'), author.articles.length, 'their articles');

  const tocResponse = await page('/table-of-content');
  const siteToc = hydrationLeafData(tocResponse.body).data as SiteTocPageData;
  const tocHtml = decode(tocResponse.body);
  t.same(
    siteToc.groups.map((group) => group.id),
    ['sections', 'articles', 'authors'],
  );
  const list = (await app.inject({ url: '/asdas/_payload.json' })).json<PayloadJson>().data as ArticleListData;
  for (const article of list.articles) t.ok(tocHtml.includes(`href="${article.path}"`), `lists ${article.path}`);
  for (const path of ['/bonus', '/terms-apply', '/play-responsibility', '/author/nicha-srisuk', '/asdas', '/author']) {
    t.ok(tocHtml.includes(`href="${path}"`), `links ${path}`);
  }
});

t.test('tags read in the page language', async (t) => {
  const tags = (html: string) => [...html.matchAll(/<li class="tag">([^<]*)<\/li>/g)].map((match) => match[1]);
  t.same(tags((await page('/asdas/rtp-explained')).body), ['Games', 'Maths']);
  t.same(tags((await page('/th/asdas/rtp-explained')).body), ['เกม', 'คณิตศาสตร์'], 'Thai names, not the English keys');
});
