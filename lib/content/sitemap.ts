import { defaultLocale, localePath, locales, type Locale } from '../../contract/locales.ts';
import type { SitemapEntry } from './sitemap-entries.ts';

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** One `<url>` per translation of each page, with hreflang alternates; English fallbacks left out. */
export function sitemapXml(entries: readonly SitemapEntry[], publicUrl: string): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const entry of entries) {
    const existing = locales.filter((locale) => entry.locales[locale]);
    if (!existing.length) continue;
    const url = (locale: Locale) => escapeXml(`${publicUrl}${localePath(locale, entry.path)}`);
    const xDefault = existing.includes(defaultLocale) ? defaultLocale : existing[0]!;
    for (const locale of existing) {
      lines.push('  <url>');
      lines.push(`    <loc>${url(locale)}</loc>`);
      const lastmod = entry.locales[locale]?.lastmod;
      if (lastmod) lines.push(`    <lastmod>${escapeXml(lastmod)}</lastmod>`);
      for (const alternate of existing) {
        lines.push(`    <xhtml:link rel="alternate" hreflang="${alternate}" href="${url(alternate)}"/>`);
      }
      lines.push(`    <xhtml:link rel="alternate" hreflang="x-default" href="${url(xDefault)}"/>`);
      lines.push('  </url>');
    }
  }
  lines.push('</urlset>', '');
  return lines.join('\n');
}

export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}
