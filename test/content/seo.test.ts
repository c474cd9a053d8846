import t from 'tap';
import { jsonForScript } from '../../contract/script-json.ts';
import { escapeHtml } from '../../contract/escape-html.ts';
import { headEntries, pageTitle, renderHeadTags, type SeoData } from '../../contract/seo.ts';

const context = { locale: 'en' as const, publicUrl: 'https://asdas.example', siteName: 'Asdas' };

const article: SeoData = {
  title: 'Odds & "ends" <script>alert(1)</script>',
  description: `It's <b>bold</b> & "quoted"</script><script>alert(2)</script>`,
  path: '/asdas/odds',
  alternates: ['en', 'th'],
  type: 'article',
  publishedTime: '2026-01-02',
  modifiedTime: '2026-02-03',
  author: { name: 'Ann </script> Author', path: '/author/ann' },
  breadcrumbs: [
    { name: 'Home', path: '/' },
    { name: 'Articles', path: '/asdas' },
    { name: 'Odds <&>', path: '/asdas/odds' },
  ],
  tags: ['maths'],
};

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json" data-seo>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

function attr(html: string, selector: RegExp): string | undefined {
  return selector.exec(html)?.[1];
}

t.test('title and attributes are escaped; nothing can open a tag', async (t) => {
  const html = renderHeadTags(article, context);
  t.match(html, '<title>Odds &amp; &quot;ends&quot; &lt;script&gt;alert(1)&lt;/script&gt; · Asdas</title>');
  t.match(
    html,
    `<meta name="description" content="It&#39;s &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;" data-seo>`,
  );
  // Outside JSON-LD, the only `<script` tags are the JSON-LD ones; inside them no `<` at all.
  const withoutLd = html.replace(/<script type="application\/ld\+json" data-seo>[^<]*<\/script>/g, '');
  t.notMatch(withoutLd, /<script/i, 'no script tag other than JSON-LD');
  for (const match of html.matchAll(/<script type="application\/ld\+json" data-seo>([\s\S]*?)<\/script>/g)) {
    t.notMatch(match[1]!, /[<>]/, 'JSON-LD contains no < or >');
  }
  t.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});

t.test('JSON-LD parses and says the right things', async (t) => {
  const html = renderHeadTags(article, context);
  const [website, articleLd, breadcrumbs] = jsonLd(html);
  t.same(website, {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: 'Asdas',
    url: 'https://asdas.example/',
    inLanguage: 'en',
  });
  t.match(articleLd, {
    '@type': 'Article',
    headline: article.title,
    description: article.description,
    datePublished: '2026-01-02',
    dateModified: '2026-02-03',
    inLanguage: 'en',
    url: 'https://asdas.example/asdas/odds',
    author: { '@type': 'Person', name: 'Ann </script> Author', url: 'https://asdas.example/author/ann' },
  });
  t.same(breadcrumbs, {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://asdas.example/' },
      { '@type': 'ListItem', position: 2, name: 'Articles', item: 'https://asdas.example/asdas' },
      { '@type': 'ListItem', position: 3, name: 'Odds <&>', item: 'https://asdas.example/asdas/odds' },
    ],
  });
  t.equal(jsonForScript({ a: '</script>\u2028' }), '{"a":"\\u003c/script\\u003e\\u2028"}');
  t.same(JSON.parse(jsonForScript({ a: '</script>&\u2029' })), { a: '</script>&\u2029' });
});

t.test('canonical, hreflang alternates and x-default', async (t) => {
  const thai = renderHeadTags(article, { ...context, locale: 'th' });
  t.equal(attr(thai, /<link rel="canonical" href="([^"]+)"/), 'https://asdas.example/th/asdas/odds');
  t.equal(attr(thai, /hreflang="en" href="([^"]+)"/), 'https://asdas.example/asdas/odds');
  t.equal(attr(thai, /hreflang="th" href="([^"]+)"/), 'https://asdas.example/th/asdas/odds');
  t.equal(attr(thai, /hreflang="x-default" href="([^"]+)"/), 'https://asdas.example/asdas/odds');
  t.equal(attr(thai, /property="og:locale" content="([^"]+)"/), 'th_TH');
  t.equal(attr(thai, /property="og:locale:alternate" content="([^"]+)"/), 'en_US');
  t.equal(attr(thai, /property="og:url" content="([^"]+)"/), 'https://asdas.example/th/asdas/odds');
  t.equal((jsonLd(thai)[0] as { url: string }).url, 'https://asdas.example/th');

  const fallback = renderHeadTags({ ...article, alternates: ['en'] }, { ...context, locale: 'th' });
  t.notMatch(fallback, 'hreflang="th"', 'a fallback page lists only the translations that exist');
  t.equal(
    attr(fallback, /<link rel="canonical" href="([^"]+)"/),
    'https://asdas.example/asdas/odds',
    'and points its canonical at the original',
  );
  t.equal((jsonLd(fallback)[1] as { inLanguage: string }).inLanguage, 'en', 'the Article is in English');

  const thaiOnly = renderHeadTags({ ...article, alternates: ['th'] }, { ...context, locale: 'th' });
  t.equal(
    attr(thaiOnly, /hreflang="x-default" href="([^"]+)"/),
    'https://asdas.example/th/asdas/odds',
    'x-default is Thai when only Thai exists',
  );
  t.notMatch(thaiOnly, 'hreflang="en"');

  const home = renderHeadTags(
    { ...article, path: '/', type: 'website', breadcrumbs: [{ name: 'Home', path: '/' }] },
    context,
  );
  t.equal(attr(home, /<link rel="canonical" href="([^"]+)"/), 'https://asdas.example/');
  t.equal(jsonLd(home).length, 1, 'a website page has WebSite only (a one-item breadcrumb is left out)');
  t.notMatch(home, 'article:published_time');
});

t.test('Open Graph and Twitter', async (t) => {
  const html = renderHeadTags({ ...article, image: '/images/share.png' }, context);
  for (const [property, content] of [
    ['og:type', 'article'],
    ['og:site_name', 'Asdas'],
    ['og:image', 'https://asdas.example/images/share.png'],
    ['article:published_time', '2026-01-02'],
    ['article:modified_time', '2026-02-03'],
    ['article:author', 'https://asdas.example/author/ann'],
    ['article:tag', 'maths'],
  ] as const) {
    t.match(html, `<meta property="${property}" content="${content}" data-seo>`, property);
  }
  t.match(html, '<meta name="twitter:card" content="summary_large_image" data-seo>');
  t.match(html, '<meta name="twitter:image" content="https://asdas.example/images/share.png" data-seo>');
  const plain = renderHeadTags(article, context);
  t.match(
    plain,
    '<meta property="og:image" content="https://asdas.example/og-image.png" data-seo>',
    "the site's image",
  );
  t.match(plain, '<meta property="og:image:width" content="1200" data-seo>');
  t.match(plain, '<meta name="twitter:card" content="summary_large_image" data-seo>', 'shared large either way');
  t.notMatch(html, 'og:image:width', "a page's own image: its size is not known");
  const hidden = renderHeadTags({ ...article, noindex: true }, context);
  t.match(hidden, '<meta name="robots" content="noindex" data-seo>');
  t.notMatch(hidden, /rel="canonical"|hreflang=/, 'a noindex page (error, draft) names no canonical or translations');
});

t.test('headEntries gives the same tags as structured data', async (t) => {
  const entries = headEntries(article, context);
  t.same(
    entries[0],
    { tag: 'title', text: 'Odds & "ends" <script>alert(1)</script> · Asdas' },
    'unescaped text for document.title',
  );
  t.equal(entries.filter((entry) => entry.tag === 'script').length, 3);
  t.equal(pageTitle('Asdas'), 'Asdas', 'no "Asdas · Asdas"');
  t.equal(pageTitle('Bonus'), 'Bonus · Asdas');
});
