import { useLoaderData } from 'react-router';

interface ContentData {
  kind: string;
  page?: { title: string; html: string };
  seo: { title: string };
}

export default function ContentPage() {
  const data = useLoaderData() as ContentData;
  return (
    <article className="page content">
      <h1>{data.page?.title ?? data.seo.title}</h1>
      {data.page ? <div className="prose" dangerouslySetInnerHTML={{ __html: data.page.html }} /> : null}
    </article>
  );
}
