import t from 'tap';
import { buildContentApp, checkWellFormedXml, fixture, publicUrl, realContent } from '../helpers/content.ts';

interface UrlEntry {
  loc: string;
  lastmod?: string;
  alternates: Record<string, string>;
}

function parseUrls(xml: string): UrlEntry[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => {
    const body = match[1]!;
    const lastmod = /<lastmod>([^<]+)<\/lastmod>/.exec(body)?.[1];
    return {
      loc: /<loc>([^<]+)<\/loc>/.exec(body)![1]!,
      ...(lastmod ? { lastmod } : {}),
      alternates: Object.fromEntries(
        [...body.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((link) => [
          link[1]!,
          link[2]!,
        ]),
      ),
    };
  });
}

const app = await buildContentApp({ root: fixture('content-basic') });
t.teardown(() => app.close());

t.test('sitemap.xml is a well-formed urlset with alternates and lastmod', async (t) => {
  const response = await app.inject({ url: '/sitemap.xml' });
  t.equal(response.statusCode, 200);
  t.equal(response.headers['content-type'], 'application/xml; charset=utf-8');
  t.equal(response.headers['cache-control'], 'public, max-age=3600');
  const xml = response.body;
  t.match(
    xml,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/,
  );
  const names = checkWellFormedXml(xml);
  t.equal(names[0], 'urlset');
  t.same([...new Set(names)].sort(), ['lastmod', 'loc', 'url', 'urlset', 'xhtml:link']);

  const urls = parseUrls(xml);
  const byLoc = new Map(urls.map((url) => [url.loc.replace(publicUrl, ''), url]));
  t.same(
    [...byLoc.keys()].sort(),
    [
      '/',
      '/asdas',
      '/asdas/first-post',
      '/asdas/hostile-markup',
      '/asdas/second-post',
      '/asdas/third-post',
      '/author',
      '/author/ann-author',
      '/author/bob-writer',
      '/bonus',
      '/guides',
      '/guides/deep',
      '/only-english',
      '/table-of-content',
      '/th',
      '/th/asdas',
      '/th/asdas/first-post',
      '/th/asdas/third-post',
      '/th/author',
      '/th/author/ann-author',
      '/th/bonus',
      '/th/table-of-content',
    ],
    'every public page; Thai only where a translation exists; no drafts',
  );
  t.ok(
    urls.every((url) => url.loc.startsWith(`${publicUrl}/`)),
    'absolute URLs',
  );
  t.same(byLoc.get('/th/asdas/third-post'), {
    loc: `${publicUrl}/th/asdas/third-post`,
    lastmod: '2026-03-15',
    alternates: {
      en: `${publicUrl}/asdas/third-post`,
      th: `${publicUrl}/th/asdas/third-post`,
      'x-default': `${publicUrl}/asdas/third-post`,
    },
  });
  t.same(byLoc.get('/asdas/second-post')?.alternates, {
    en: `${publicUrl}/asdas/second-post`,
    'x-default': `${publicUrl}/asdas/second-post`,
  });
  t.equal(byLoc.get('/asdas/second-post')?.lastmod, '2026-02-20', 'lastmod is updated when there is one');
  t.equal(byLoc.get('/')?.lastmod, '2026-01-10');
  t.equal(byLoc.get('/th')?.lastmod, '2026-01-12', 'each translation has its own lastmod');
  t.equal(byLoc.get('/asdas')?.lastmod, '2026-03-15', 'a list changes with its newest article');
  t.equal(byLoc.get('/author/bob-writer')?.lastmod, '2026-02-20');
  t.ok(
    urls.every((url) => !url.lastmod || /^\d{4}-\d{2}-\d{2}$/.test(url.lastmod)),
    'W3C dates',
  );

  const again = await app.inject({
    url: '/sitemap.xml',
    headers: { 'if-none-match': response.headers.etag as string },
  });
  t.equal(again.statusCode, 304, 'ETag revalidation');
});

t.test('robots.txt points at the sitemap', async (t) => {
  const response = await app.inject({ url: '/robots.txt' });
  t.equal(response.statusCode, 200);
  t.equal(response.headers['content-type'], 'text/plain; charset=utf-8');
  t.equal(response.headers['cache-control'], 'public, max-age=3600');
  t.equal(response.body, `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${publicUrl}/sitemap.xml\n`);
  const head = await app.inject({ method: 'HEAD', url: '/robots.txt' });
  t.equal(head.statusCode, 200);
});

t.test('the real content gives a sitemap with both locales', async (t) => {
  const real = await buildContentApp({ root: realContent });
  t.teardown(() => real.close());
  const xml = (await real.inject({ url: '/sitemap.xml' })).body;
  checkWellFormedXml(xml);
  const urls = parseUrls(xml);
  const paths = urls.map((url) => url.loc.replace(publicUrl, ''));
  for (const path of [
    '/',
    '/th',
    '/asdas',
    '/th/asdas',
    '/bonus',
    '/th/bonus',
    '/terms-apply',
    '/th/terms-apply',
    '/play-responsibility',
    '/th/play-responsibility',
    '/author',
    '/th/author',
    '/table-of-content',
    '/th/table-of-content',
  ]) {
    t.ok(paths.includes(path), path);
  }
  t.ok(paths.filter((path) => path.startsWith('/asdas/')).length >= 12);
  t.ok(paths.filter((path) => path.startsWith('/th/asdas/')).length >= 12);
  t.notOk(paths.includes('/asdas/upcoming-live-tables'), 'the draft is not listed');
  t.ok(
    urls.every((url) => url.alternates['x-default'] && url.lastmod),
    'every URL has x-default and lastmod',
  );
});

t.test('the well-formedness check itself catches broken XML', async (t) => {
  t.throws(() => checkWellFormedXml('<a><b></a></b>'));
  t.throws(() => checkWellFormedXml('<a>x & y</a>'));
  t.throws(() => checkWellFormedXml('<a href=x/>'));
  t.throws(() => checkWellFormedXml('<a></a><b></b>'));
  t.same(checkWellFormedXml('<?xml version="1.0"?>\n<a x="1&amp;2"><b/>t</a>'), ['a', 'b']);
});
