import { useLoaderData } from 'react-router';
import { AppLink } from '../components/app-link.tsx';
import { useLocale } from '../hooks.ts';
import { localePath } from '../../lib/locales.ts';

interface HomeData {
  intro: { title: string; html: string };
  latestArticles: { slug: string; title: string; description: string }[];
}

export default function HomePage() {
  const data = useLoaderData() as HomeData;
  const locale = useLocale();
  return (
    <article className="page home">
      <h1>{data.intro.title}</h1>
      <div className="prose" dangerouslySetInnerHTML={{ __html: data.intro.html }} />
      <ul className="card-list">
        {data.latestArticles.map((article) => (
          <li key={article.slug} className="card">
            <AppLink to={localePath(locale, `/asdas/${article.slug}`)}>{article.title}</AppLink>
            <p>{article.description}</p>
          </li>
        ))}
      </ul>
    </article>
  );
}
