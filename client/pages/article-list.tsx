import { useLoaderData, useSearchParams } from 'react-router';
import { AppLink } from '../components/app-link.tsx';
import { useLocale } from '../hooks.ts';
import { localePath } from '../../lib/locales.ts';

interface ArticleListData {
  articles: { slug: string; title: string; description: string; published: string }[];
  pageSize: number;
  seo: { title: string };
}

export default function ArticleListPage() {
  const data = useLoaderData() as ArticleListData;
  const locale = useLocale();
  const [search] = useSearchParams();
  const page = Number(search.get('page') ?? '1');
  const shown = data.articles.slice((page - 1) * data.pageSize, page * data.pageSize);
  return (
    <section className="page article-list">
      <h1>{data.seo.title}</h1>
      <ul className="card-list">
        {shown.map((article) => (
          <li key={article.slug} className="card">
            <AppLink to={localePath(locale, `/asdas/${article.slug}`)}>{article.title}</AppLink>
            <p>{article.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
