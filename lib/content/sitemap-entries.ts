import { locales, type Locale } from '../../contract/locales.ts';
import { articlesPath, authorsPath, type ContentCatalog, siteTocPath } from './catalog.ts';
import type { PageEntry } from './snapshot.ts';

/** One public address of the sitemap with the locales it exists in and their last change. */
export interface SitemapEntry {
  /** Without locale prefix. */
  path: string;
  /** Locales this page really exists in, each with its `YYYY-MM-DD` last modification if known. */
  locales: Partial<Record<Locale, { lastmod?: string }>>;
}

function newest(dates: (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const date of dates) if (date && (!best || date > best)) best = date;
  return best;
}

const lastmodOf = (entry: PageEntry) => entry.meta.updated ?? entry.meta.published;
const published = (entry: PageEntry) => !entry.meta.draft;

/** The sitemap's addresses, never drafts. */
export function buildSitemapEntries(catalog: ContentCatalog): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  const pageEntry = (path: string): SitemapEntry | undefined => {
    const byLocale = catalog.pages.get(path) ?? {};
    const found: SitemapEntry['locales'] = {};
    for (const locale of locales) {
      const entry = byLocale[locale];
      if (entry && published(entry)) found[locale] = { lastmod: lastmodOf(entry) };
    }
    return Object.keys(found).length ? { path, locales: found } : undefined;
  };
  // A list changes when what it lists does: the newest date among the articles each locale shows.
  const articleDates = (locale: Locale, author?: string) =>
    catalog
      .articleSlugs()
      .map((slug) => catalog.resolve(locale, `${articlesPath}/${slug}`)?.entry)
      .filter((entry): entry is PageEntry =>
        Boolean(entry && published(entry) && (!author || entry.meta.author === author)),
      )
      .map(lastmodOf);
  const generated = (path: string, lastmod: (locale: Locale) => string | undefined): SitemapEntry => ({
    path,
    locales: Object.fromEntries(
      locales.map((locale) => {
        const date = lastmod(locale);
        return [locale, date ? { lastmod: date } : {}];
      }),
    ),
  });

  const home = pageEntry('/');
  if (home) entries.push(home);
  entries.push(generated(articlesPath, (locale) => newest(articleDates(locale))));
  for (const slug of catalog.articleSlugs().sort()) {
    const entry = pageEntry(`${articlesPath}/${slug}`);
    if (entry) entries.push(entry);
  }
  for (const path of catalog.sectionPaths().sort()) {
    const entry = pageEntry(path);
    if (entry) entries.push(entry);
  }
  entries.push(generated(authorsPath, (locale) => newest(articleDates(locale))));
  for (const slug of [...catalog.authors.keys()].sort()) {
    const byLocale = catalog.authors.get(slug) ?? {};
    const found: SitemapEntry['locales'] = {};
    for (const locale of locales) {
      if (!byLocale[locale]) continue;
      const date = newest(articleDates(locale, slug));
      found[locale] = date ? { lastmod: date } : {};
    }
    if (Object.keys(found).length) entries.push({ path: `${authorsPath}/${slug}`, locales: found });
  }
  entries.push(
    generated(siteTocPath, (locale) =>
      newest([
        ...articleDates(locale),
        ...[...catalog.pages.values()]
          .map((byLocale) => byLocale[locale])
          .filter((e): e is PageEntry => Boolean(e && published(e)))
          .map(lastmodOf),
      ]),
    ),
  );
  return entries;
}
