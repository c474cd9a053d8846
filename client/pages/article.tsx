import { useLoaderData } from 'react-router';

interface ArticleData {
  article: { title: string; html: string };
}

export default function ArticlePage() {
  const { article } = useLoaderData() as ArticleData;
  return (
    <article className="page article">
      <h1>{article.title}</h1>
      <div className="prose" dangerouslySetInnerHTML={{ __html: article.html }} />
    </article>
  );
}
