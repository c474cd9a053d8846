/** What a page tells search engines and link previews; no Node or DOM APIs, so both sides use it. */
import { jsonForScript } from './script-json.ts';
import { defaultLocale, localePath, type Locale } from './locales.ts';
import { escapeHtml } from './escape-html.ts';
import { pageTitle, siteName } from './page-title.ts';

// Its own file, so the browser can set a title without loading the rest.
export { pageTitle } from './page-title.ts';

export interface SeoLink {
  name: string;
  path: string;
}

export interface SeoData {
  title: string;
  description: string;
  /** WITHOUT the locale prefix: alternates and canonical are built from it. */
  path: string;
  /** A Thai page showing the English text is not a translation. */
  alternates: Locale[];
  type: 'website' | 'article';
  publishedTime?: string;
  modifiedTime?: string;
  author?: SeoLink;
  breadcrumbs: SeoLink[];
  image?: string;
  tags?: string[];
  noindex?: boolean;
}

export interface HeadContext {
  locale: Locale;
  publicUrl: string;
  siteName?: string;
}

export type HeadEntry =
  | { tag: 'title'; text: string }
  | { tag: 'meta'; attrs: { name: string; content: string } | { property: string; content: string } }
  | { tag: 'link'; attrs: { rel: string; href: string; hreflang?: string } }
  | { tag: 'script'; attrs: { type: 'application/ld+json' }; json: string };

const ogLocales: Record<Locale, string> = { en: 'en_US', th: 'th_TH' };

/** A page without an image of its own is shared with the site's (scripts/make-icons.ts). */
export const siteShareImage = { path: '/og-image.png', width: 1200, height: 630 } as const;

function absolute(publicUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return `${publicUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

/** The locale an existing translation of the page is in: the page's own, else English, else any. */
function contentLocale(seo: SeoData, locale: Locale): Locale {
  if (seo.alternates.includes(locale)) return locale;
  if (seo.alternates.includes(defaultLocale)) return defaultLocale;
  return seo.alternates[0] ?? locale;
}

export function headEntries(seo: SeoData, context: HeadContext): HeadEntry[] {
  const { locale, publicUrl } = context;
  const name = context.siteName ?? siteName;
  const title = pageTitle(seo.title, name);
  // A page showing another locale's text (the Thai fallback) points search engines at the original.
  const canonicalLocale = contentLocale(seo, locale);
  const canonical = absolute(publicUrl, localePath(canonicalLocale, seo.path));
  const url = absolute(publicUrl, localePath(locale, seo.path));
  const image = seo.image ? absolute(publicUrl, seo.image) : undefined;
  const shared = image ?? absolute(publicUrl, siteShareImage.path);
  const entries: HeadEntry[] = [
    { tag: 'title', text: title },
    { tag: 'meta', attrs: { name: 'description', content: seo.description } },
  ];
  if (seo.noindex) entries.push({ tag: 'meta', attrs: { name: 'robots', content: 'noindex' } });
  // A page kept out of the index (an error, a draft) names no canonical and no translations.
  else entries.push({ tag: 'link', attrs: { rel: 'canonical', href: canonical } });

  const alternates = seo.noindex ? [] : (['en', 'th'] as const).filter((code) => seo.alternates.includes(code));
  for (const code of alternates) {
    entries.push({
      tag: 'link',
      attrs: { rel: 'alternate', hreflang: code, href: absolute(publicUrl, localePath(code, seo.path)) },
    });
  }
  if (alternates.length) {
    const fallback = alternates.includes(defaultLocale) ? defaultLocale : alternates[0]!;
    entries.push({
      tag: 'link',
      attrs: { rel: 'alternate', hreflang: 'x-default', href: absolute(publicUrl, localePath(fallback, seo.path)) },
    });
  }

  const og = (property: string, content: string) => entries.push({ tag: 'meta', attrs: { property, content } });
  og('og:title', title);
  og('og:description', seo.description);
  og('og:url', url);
  og('og:type', seo.type);
  og('og:site_name', name);
  og('og:locale', ogLocales[locale]);
  for (const code of alternates) if (code !== locale) og('og:locale:alternate', ogLocales[code]);
  og('og:image', shared);
  if (!image) {
    og('og:image:width', String(siteShareImage.width));
    og('og:image:height', String(siteShareImage.height));
  }
  if (seo.type === 'article') {
    if (seo.publishedTime) og('article:published_time', seo.publishedTime);
    if (seo.modifiedTime) og('article:modified_time', seo.modifiedTime);
    if (seo.author) og('article:author', absolute(publicUrl, seo.author.path));
    for (const tag of seo.tags ?? []) og('article:tag', tag);
  }

  const twitter = (key: string, content: string) => entries.push({ tag: 'meta', attrs: { name: key, content } });
  twitter('twitter:card', 'summary_large_image');
  twitter('twitter:title', title);
  twitter('twitter:description', seo.description);
  twitter('twitter:image', shared);

  const home = absolute(publicUrl, localePath(locale, '/'));
  const ld = (json: unknown) =>
    entries.push({ tag: 'script', attrs: { type: 'application/ld+json' }, json: jsonForScript(json) });
  ld({ '@context': 'https://schema.org', '@type': 'WebSite', name, url: home, inLanguage: locale });
  if (seo.type === 'article') {
    ld({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: seo.title,
      description: seo.description,
      url,
      mainEntityOfPage: canonical,
      inLanguage: canonicalLocale,
      ...(seo.publishedTime ? { datePublished: seo.publishedTime } : {}),
      ...(seo.modifiedTime || seo.publishedTime ? { dateModified: seo.modifiedTime ?? seo.publishedTime } : {}),
      ...(seo.author
        ? { author: { '@type': 'Person', name: seo.author.name, url: absolute(publicUrl, seo.author.path) } }
        : {}),
      ...(image ? { image } : {}),
      ...(seo.tags?.length ? { keywords: seo.tags.join(', ') } : {}),
      publisher: { '@type': 'Organization', name, url: home },
    });
  }
  if (seo.breadcrumbs.length > 1) {
    ld({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: seo.breadcrumbs.map((crumb, index) => ({
        '@type': 'ListItem',
        position: index + 1,
        name: crumb.name,
        item: absolute(publicUrl, crumb.path),
      })),
    });
  }
  return entries;
}

/** Every tag but the title carries `data-seo`, so the client can replace them after a navigation. */
function renderHeadEntry(entry: HeadEntry): string {
  if (entry.tag === 'title') return `<title>${escapeHtml(entry.text)}</title>`;
  const attrs = Object.entries(entry.attrs)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}="${escapeHtml(String(value))}"`)
    .join('');
  if (entry.tag === 'script') return `<script${attrs} data-seo>${entry.json}</script>`;
  return `<${entry.tag}${attrs} data-seo>`;
}

export function renderHeadTags(seo: SeoData, context: HeadContext): string {
  return headEntries(seo, context).map(renderHeadEntry).join('\n');
}

/** Browser side, after a client navigation: the title set, every `[data-seo]` element replaced. */
export function applyHeadEntries(doc: Document, entries: readonly HeadEntry[]): void {
  for (const element of Array.from(doc.head.querySelectorAll('[data-seo]'))) element.remove();
  const fragment = doc.createDocumentFragment();
  for (const entry of entries) {
    if (entry.tag === 'title') {
      doc.title = entry.text;
      continue;
    }
    const element = doc.createElement(entry.tag);
    for (const [key, value] of Object.entries(entry.attrs))
      if (value !== undefined) element.setAttribute(key, String(value));
    element.setAttribute('data-seo', '');
    if (entry.tag === 'script') element.textContent = entry.json;
    fragment.appendChild(element);
  }
  doc.head.appendChild(fragment);
}
