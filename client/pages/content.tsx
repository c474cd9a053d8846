import { useTranslation } from '../i18n.ts';
import type { AuthorPageData, AuthorsPageData, SectionPageData, SiteTocPageData } from '../../contract/content.ts';
import { AppLink } from '../components/app-link.tsx';
import {
  ArticleCardList,
  DateTime,
  FallbackNote,
  ItemBadges,
  PageHeader,
  Prose,
  ReadingTime,
  TableOfContents,
} from '../components/content-parts.tsx';
import { usePageData } from '../hooks.ts';
import type { loader } from './content.server.ts';

/** A Markdown section (bonus, terms apply, play responsibility ...), with its ToC when it has two headings or more. */
function SectionPage({ data }: { data: SectionPageData }) {
  const { t } = useTranslation();
  const { page } = data;
  const lang = page.fallback ? 'en' : undefined;
  const withToc = page.toc.length >= 2;
  return (
    <article className="page section">
      <PageHeader seo={data.seo} title={page.title} lede={page.description} lang={lang}>
        <p className="meta">
          <span>
            {t('section.updated')} <DateTime date={page.updated ?? page.published} />
          </span>
          <ReadingTime minutes={page.readingMinutes} />
          <ItemBadges fallback={false} draft={page.draft} />
        </p>
      </PageHeader>
      {page.fallback ? <FallbackNote /> : null}
      <div className={withToc ? 'with-toc' : undefined}>
        {withToc ? (
          <aside className="toc-aside">
            <TableOfContents toc={page.toc} lang={lang} />
          </aside>
        ) : null}
        <div className="article-body">
          <Prose html={page.html} lang={lang} />
        </div>
      </div>
    </article>
  );
}

function Avatar({ initials, large = false }: { initials: string; large?: boolean }) {
  return (
    <span className={large ? 'avatar avatar-large' : 'avatar'} aria-hidden="true">
      {initials}
    </span>
  );
}

/** `/author`: everyone who writes here. */
function AuthorsPage({ data }: { data: AuthorsPageData }) {
  const { t } = useTranslation();
  return (
    <div className="page authors">
      <PageHeader seo={data.seo} title={data.seo.title} lede={data.seo.description} />
      <ul className="card-list author-cards">
        {data.authors.map((author) => (
          <li key={author.slug}>
            <article className="card author-card" data-testid="author-card">
              <Avatar initials={author.avatar} />
              <div>
                <h2 className="card-title">
                  <AppLink to={author.path}>{author.name}</AppLink>
                </h2>
                <p className="card-text" lang={author.fallback ? 'en' : undefined}>
                  {author.role}
                </p>
                <p className="meta">{t('authors.articleCount', { count: author.articleCount })}</p>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** `/author/{slug}`: the bio and their articles. */
function AuthorPage({ data }: { data: AuthorPageData }) {
  const { t } = useTranslation();
  const { author } = data;
  const lang = author.fallback ? 'en' : undefined;
  return (
    <div className="page author">
      <PageHeader seo={data.seo} title={author.name}>
        <div className="author-intro">
          <Avatar initials={author.avatar} large />
          <p className="author-role" lang={lang}>
            {author.role}
          </p>
        </div>
      </PageHeader>
      {author.fallback ? <FallbackNote /> : null}
      {author.bioHtml ? <Prose html={author.bioHtml} lang={lang} className="prose author-bio" /> : null}
      <section aria-labelledby="author-articles">
        <h2 id="author-articles" className="section-title">
          {t('author.articlesBy', { name: author.name })}
        </h2>
        {data.articles.length ? (
          <ArticleCardList articles={data.articles} heading="h3" showAuthor={false} />
        ) : (
          <p className="empty">{t('author.noArticles')}</p>
        )}
      </section>
    </div>
  );
}

/** `/table-of-content`: every page, article and author of the site, grouped. */
function SiteTocPage({ data }: { data: SiteTocPageData }) {
  const { t } = useTranslation();
  return (
    <div className="page site-toc">
      <PageHeader seo={data.seo} title={data.seo.title} lede={data.seo.description} />
      <div className="site-toc-groups">
        {data.groups.map((group) => (
          <section
            key={group.id}
            className="site-toc-group"
            aria-labelledby={`group-${group.id}`}
            data-group={group.id}
          >
            <div className="section-head">
              <h2 id={`group-${group.id}`} className="section-title">
                {group.title}
              </h2>
              {group.path ? (
                <AppLink to={group.path} className="section-more">
                  {t('siteToc.viewAll')} →
                </AppLink>
              ) : null}
            </div>
            <ul className="site-toc-list">
              {group.items.map((item) => (
                <li key={item.path}>
                  <AppLink to={item.path} lang={item.fallback ? 'en' : undefined}>
                    {item.title}
                  </AppLink>
                  <ItemBadges fallback={item.fallback} />
                  {item.description ? (
                    <p className="site-toc-description" lang={item.fallback ? 'en' : undefined}>
                      {item.description}
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

/** The catch-all: what the `contentPage` data source found at this path. */
export default function ContentPage() {
  const data = usePageData<typeof loader>();
  switch (data.kind) {
    case 'section':
      return <SectionPage data={data} />;
    case 'authors':
      return <AuthorsPage data={data} />;
    case 'author':
      return <AuthorPage data={data} />;
    case 'toc':
      return <SiteTocPage data={data} />;
  }
}
