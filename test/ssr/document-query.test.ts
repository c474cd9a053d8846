import t from 'tap';
import { isRouteErrorResponse, type StaticHandlerContext } from 'react-router';
import { PageNotFoundError, type PageDataSource, type PublicUser } from '../../contract/page-data.ts';
import type { ServerRequestContext } from '../../client/entry-server.tsx';
import { queryDocument } from '../../client/router/document-query.ts';
import { handler, type LoaderContext } from '../../client/router/server-router.ts';

// The server's direct GET path (client/router/document-query.ts) must make exactly the state
// react-router's static handler makes: same matches, data, errors at the same boundary, same
// status, same redirects. Each case runs both on the same request and compares what a render reads.

const user: PublicUser = {
  id: 'u1',
  email: 'reader@example.com',
  displayName: 'Reader',
  emailVerified: true,
} as PublicUser;

const articles = Array.from({ length: 12 }, (_, index) => ({ slug: `article-${index + 1}` }));
const sources: Record<string, PageDataSource> = {
  articleList: () => ({ articles, pageSize: 10, seo: { title: 'Articles' } }),
  article: ({ params }) => {
    if (params.slug === 'missing-one') throw new PageNotFoundError('/asdas/missing-one');
    return { slug: params.slug, seo: { title: String(params.slug) } };
  },
  contentPage: ({ path }) => {
    if (path === '/broken') throw new Error('the data source failed');
    if (path !== '/bonus') throw new PageNotFoundError(path);
    return { path, seo: { title: 'Bonus' } };
  },
};

function contextFor(signedIn: PublicUser | null): LoaderContext {
  const request: ServerRequestContext = {
    user: signedIn,
    isBot: false,
    runFormAction: async () => ({ ok: false, status: 400, values: {}, errors: {} }),
    logError: () => {},
  };
  return {
    request,
    site: {
      dev: false,
      buildId: 'test-build',
      buildCheckIntervalMs: 3600000,
      allowedExternalOrigins: [],
      publicUrl: 'http://localhost:3000',
      dataSource: (name) => sources[name] ?? (() => ({ source: name, seo: { title: name } })),
    },
  };
}

/** What a render and the hydration data read of a state, comparable with t.same. */
function readable(state: StaticHandlerContext | Response) {
  if (state instanceof Response) return { redirect: state.status, location: state.headers.get('location') };
  const errors = state.errors
    ? Object.fromEntries(
        Object.entries(state.errors).map(([id, error]) => [
          id,
          isRouteErrorResponse(error)
            ? { ...error, kind: 'route error response' }
            : { kind: 'error', message: String(error) },
        ]),
      )
    : null;
  return {
    basename: state.basename,
    location: { ...state.location },
    matches: state.matches.map((match) => ({ id: match.route.id, params: match.params, pathname: match.pathname })),
    loaderData: state.loaderData,
    actionData: state.actionData,
    errors,
    statusCode: state.statusCode,
  };
}

const cases: { url: string; user?: PublicUser; expect: RegExp }[] = [
  { url: '/', expect: /^200/ },
  { url: '/th', expect: /^200/ },
  { url: '/asdas', expect: /^200/ },
  { url: '/asdas?page=2', expect: /^200/ },
  { url: '/th/asdas?page=x', expect: /^400/ },
  { url: '/asdas?page=9', expect: /^404/ },
  { url: '/asdas/article-3', expect: /^200/ },
  { url: '/asdas/Not_A_Slug', expect: /^404/ },
  { url: '/asdas/missing-one', expect: /^404/ },
  { url: '/bonus?utm=x#top', expect: /^200/ },
  { url: '/th/nothing/here', expect: /^404/ },
  { url: '/broken', expect: /^500/ },
  { url: '/account', expect: /^redirect 302/ },
  { url: '/th/play?x=1', expect: /^redirect 302/ },
  { url: '/account', user, expect: /^200/ },
  { url: '/login', user, expect: /^redirect 302/ },
  { url: '/login?redirect=/th/play', expect: /^200/ },
  { url: '/%E0%B8%81%E0%B8%82', expect: /^404/ },
];

for (const { url, user: signedIn = null, expect } of cases) {
  t.test(`${url}${signedIn ? ' (signed in)' : ''}: the same state as react-router's query`, async (t) => {
    const address = new URL(url, 'http://localhost');
    const direct = readable(await queryDocument(address, contextFor(signedIn)));
    const reference = readable(await handler.query(new Request(address), { requestContext: contextFor(signedIn) }));
    t.same(direct, reference);
    t.strictSame(Object.keys(direct), Object.keys(reference), 'the same fields');
    const summary = 'redirect' in reference ? `redirect ${reference.redirect}` : String(reference.statusCode);
    t.match(summary, expect, 'the case covers what it names');
  });
}
