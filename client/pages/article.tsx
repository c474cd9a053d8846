import { useTranslation } from '../i18n.ts';
import { offersPlay, type ArticleLink } from '../../contract/content.ts';
import { AppLink } from '../components/app-link.tsx';
import {
  DateTime,
  FallbackNote,
  ItemBadges,
  PageHeader,
  Prose,
  ReadingTime,
  TableOfContents,
} from '../components/content-parts.tsx';
import { PlayCallToAction } from '../components/play-button.tsx';
import { usePageData } from '../hooks.ts';
import type { loader } from './article.server.ts';

function Neighbour({ link, rel }: { link: ArticleLink | undefined; rel: 'prev' | 'next' }) {
  const { t } = useTranslation();
  if (!link) return <span />;
  return (
    <AppLink to={link.path} rel={rel} className={`neighbour neighbour-${rel}`} data-testid={`article-${rel}`}>
      <span className="neighbour-label">
        {rel === 'prev' ? `← ${t('article.previous')}` : `${t('article.next')} →`}
      </span>
      <span className="neighbour-title">{link.title}</span>
    </AppLink>
  );
}

/** `/asdas/:slug`: the article with its byline, dates, table of contents and neighbours. */
export default function ArticlePage() {
  const { article, previous, next, seo } = usePageData<typeof loader>();
  const { t } = useTranslation();
  const lang = article.fallback ? 'en' : undefined;
  return (
    <article className="page article">
      <PageHeader seo={seo} title={article.title} lede={article.description} lang={lang}>
        <p className="meta byline">
          <span className="meta-author">
            {t('content.by')}{' '}
            <AppLink to={article.author.path} rel="author" data-testid="byline-author">
              {article.author.name}
            </AppLink>
            {article.author.role ? <span className="meta-role">, {article.author.role}</span> : null}
          </span>
          <span>
            {t('article.published')} <DateTime date={article.published} />
          </span>
          {article.updated && article.updated !== article.published ? (
            <span>
              {t('article.updated')} <DateTime date={article.updated} />
            </span>
          ) : null}
          <ReadingTime minutes={article.readingMinutes} />
          <ItemBadges fallback={false} draft={article.draft} />
        </p>
      </PageHeader>
      {article.fallback ? <FallbackNote /> : null}
      <div className={article.toc.length ? 'with-toc' : undefined}>
        {article.toc.length ? (
          <aside className="toc-aside">
            <TableOfContents toc={article.toc} lang={lang} />
          </aside>
        ) : null}
        <div className="article-body">
          <Prose html={article.html} lang={lang} />
          {article.tags.length ? (
            <div className="tags">
              <span className="tags-label">{t('article.tags')}</span>
              <ul>
                {article.tags.map((tag) => (
                  <li key={tag} className="tag">
                    {t(`article.tagNames.${tag}`, { defaultValue: tag })}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
      {offersPlay(article.tags) ? <PlayCallToAction /> : null}
      {previous || next ? (
        <nav className="neighbours" aria-label={t('article.moreArticles')}>
          <Neighbour link={previous} rel="prev" />
          <Neighbour link={next} rel="next" />
        </nav>
      ) : null}
    </article>
  );
}
