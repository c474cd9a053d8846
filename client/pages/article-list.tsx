import { useTranslation } from '../i18n.ts';
import { useLocation, useSearchParams } from 'react-router';
import { AppLink } from '../components/app-link.tsx';
import { ArticleCardList, PageHeader } from '../components/content-parts.tsx';
import { usePageData } from '../hooks.ts';
import type { loader } from './article-list.server.ts';

/** The page numbers to show: first, last, and a window around the current one; null is a gap. */
export function pageWindow(current: number, count: number, around = 2): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let page = 1; page <= count; page += 1) {
    if (page === 1 || page === count || Math.abs(page - current) <= around) pages.push(page);
    else if (pages.at(-1) !== null) pages.push(null);
  }
  return pages;
}

function Pagination({ current, count, pathname }: { current: number; count: number; pathname: string }) {
  const { t } = useTranslation();
  if (count < 2) return null;
  const href = (page: number) => (page === 1 ? pathname : `${pathname}?page=${page}`);
  return (
    <nav className="pagination" aria-label={t('list.pagination')} data-testid="pagination">
      {current > 1 ? (
        <AppLink to={href(current - 1)} rel="prev" className="pagination-step">
          ← {t('list.previous')}
        </AppLink>
      ) : (
        <span className="pagination-step" aria-disabled="true">
          ← {t('list.previous')}
        </span>
      )}
      <ol className="pagination-pages">
        {pageWindow(current, count).map((page, index) =>
          page === null ? (
            <li key={`gap-${index}`} className="pagination-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <AppLink
                to={href(page)}
                aria-label={t('list.pageLabel', { page })}
                aria-current={page === current ? 'page' : undefined}
                className={page === current ? 'current' : undefined}
              >
                {page}
              </AppLink>
            </li>
          ),
        )}
      </ol>
      {current < count ? (
        <AppLink to={href(current + 1)} rel="next" className="pagination-step">
          {t('list.next')} →
        </AppLink>
      ) : (
        <span className="pagination-step" aria-disabled="true">
          {t('list.next')} →
        </span>
      )}
    </nav>
  );
}

/** `/asdas`: every article, newest first; `?page=N` picks the slice (checked by the route's checkSearch). */
export default function ArticleListPage() {
  const data = usePageData<typeof loader>();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const count = Math.max(1, Math.ceil(data.articles.length / data.pageSize));
  const requested = Number(search.get('page') ?? '1');
  const page = Number.isInteger(requested) && requested >= 1 && requested <= count ? requested : 1;
  const shown = data.articles.slice((page - 1) * data.pageSize, page * data.pageSize);

  return (
    <div className="page article-list">
      <PageHeader seo={data.seo} title={data.seo.title} lede={data.seo.description}>
        <p className="meta">
          <span>{t('list.articleCount', { count: data.articles.length })}</span>
          {count > 1 ? <span>{t('list.pageOf', { page, count })}</span> : null}
        </p>
      </PageHeader>
      {shown.length ? <ArticleCardList articles={shown} /> : <p className="empty">{t('list.empty')}</p>}
      <Pagination current={page} count={count} pathname={pathname} />
    </div>
  );
}
