import type { ReactNode } from 'react';
import { useTranslation } from '../i18n.ts';
import type { ArticleSummary, SeoData } from '../../contract/content.ts';
import type { Locale } from '../../contract/locales.ts';
import { useLocale } from '../hooks.ts';
import { AppLink } from './app-link.tsx';

// The pages import the prose and table of contents from here too, so all of it is one chunk:
// a prefetched route chunk is then one request.
export { Prose } from './prose.tsx';
export { TableOfContents } from './table-of-contents.tsx';

// Thai dates use the Buddhist calendar (th-TH's default); the dates are calendar days, so UTC.
const dateLocales: Record<Locale, string> = { en: 'en-GB', th: 'th-TH' };
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();
/** Formatted dates by `locale date`: the content's dates are few and every list renders them. */
const formattedDates = new Map<string, string>();
const maxFormattedDates = 2000;

/** `2026-02-09` → `9 February 2026` / `9 กุมภาพันธ์ 2569`. */
function formatDate(date: string, locale: Locale): string {
  const key = `${locale} ${date}`;
  const known = formattedDates.get(key);
  if (known !== undefined) return known;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(dateLocales[locale], {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    dateFormats.set(locale, format);
  }
  const parsed = new Date(`${date}T00:00:00Z`);
  const formatted = Number.isNaN(parsed.getTime()) ? date : format.format(parsed);
  // Bounded: whatever dates arrive, the table never grows past a few thousand short strings.
  if (formattedDates.size >= maxFormattedDates) formattedDates.clear();
  formattedDates.set(key, formatted);
  return formatted;
}

export function DateTime({ date }: { date: string }) {
  const locale = useLocale();
  return <time dateTime={date}>{formatDate(date, locale)}</time>;
}

export function ReadingTime({ minutes }: { minutes: number }) {
  const { t } = useTranslation();
  return <span className="reading-time">{t('content.readingTime', { count: minutes })}</span>;
}

/** "In English" on an item of a Thai list whose text is the English one; "Draft" outside production. */
export function ItemBadges({ fallback, draft }: { fallback: boolean; draft?: boolean | undefined }) {
  const { t } = useTranslation();
  if (!fallback && !draft) return null;
  return (
    <>
      {fallback ? <span className="badge">{t('content.inEnglish')}</span> : null}
      {draft ? <span className="badge badge-draft">{t('content.draft')}</span> : null}
    </>
  );
}

/** Shown on a Thai address whose page exists only in English (the text below is the English one). */
export function FallbackNote() {
  const { t } = useTranslation();
  return (
    <p className="fallback-note" role="note" data-testid="fallback-note">
      {t('content.fallbackNote')}
    </p>
  );
}

function ArticleMeta({ article, showAuthor = true }: { article: ArticleSummary; showAuthor?: boolean }) {
  const { t } = useTranslation();
  return (
    <p className="meta">
      {showAuthor ? (
        <span className="meta-author">
          {t('content.by')} <AppLink to={article.author.path}>{article.author.name}</AppLink>
        </span>
      ) : null}
      <DateTime date={article.published} />
      <ReadingTime minutes={article.readingMinutes} />
    </p>
  );
}

function ArticleCard({
  article,
  heading: Heading = 'h2',
  showAuthor = true,
}: {
  article: ArticleSummary;
  heading?: 'h2' | 'h3';
  showAuthor?: boolean;
}) {
  const lang = article.fallback ? 'en' : undefined;
  return (
    <article className="card article-card" data-testid="article-card">
      <Heading className="card-title" lang={lang}>
        <AppLink to={article.path}>{article.title}</AppLink>
      </Heading>
      <ItemBadges fallback={article.fallback} draft={article.draft} />
      <p className="card-text" lang={lang}>
        {article.description}
      </p>
      <ArticleMeta article={article} showAuthor={showAuthor} />
    </article>
  );
}

export function ArticleCardList({
  articles,
  heading,
  showAuthor,
}: {
  articles: readonly ArticleSummary[];
  heading?: 'h2' | 'h3';
  showAuthor?: boolean;
}) {
  return (
    <ul className="card-list article-cards">
      {articles.map((article) => (
        <li key={article.slug}>
          <ArticleCard
            article={article}
            {...(heading ? { heading } : {})}
            {...(showAuthor === undefined ? {} : { showAuthor })}
          />
        </li>
      ))}
    </ul>
  );
}

/** Home › Section › Page, from the page's SEO data (the last crumb is the page itself). */
function Breadcrumbs({ seo }: { seo: SeoData }) {
  const { t } = useTranslation();
  const crumbs = seo.breadcrumbs;
  if (crumbs.length < 2) return null;
  return (
    <nav className="breadcrumbs" aria-label={t('content.breadcrumbs')}>
      <ol>
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index === crumbs.length - 1 ? (
              <span aria-current="page">{crumb.name}</span>
            ) : (
              <AppLink to={crumb.path}>{crumb.name}</AppLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** The heading block of a page: breadcrumbs, title, lede and whatever meta follows. */
export function PageHeader({
  seo,
  title,
  lede,
  lang,
  children,
}: {
  seo: SeoData;
  title: string;
  lede?: string | undefined;
  lang?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      <Breadcrumbs seo={seo} />
      <div lang={lang}>
        <h1>{title}</h1>
        {lede ? <p className="lede">{lede}</p> : null}
      </div>
      {children}
    </header>
  );
}
