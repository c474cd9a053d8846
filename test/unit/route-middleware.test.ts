import t from 'tap';
import type { Locale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { routeMiddleware, runRouteMiddleware } from '../../contract/route-middleware.ts';
import { checkPage, loadPage } from '../../client/router/page-loader.ts';
import type { MiddlewareName, PageRoute } from '../../contract/routes.ts';

// checkPage and loadPage are the browser router's middleware and loader around
// contract/page-steps.ts, which the server's pipeline (lib/pages/pipeline.ts) runs in one go, so
// these cover both; the routes are made here to combine what no page of the table combines.

const user: PublicUser = {
  id: 'u1',
  email: 'ann@example.com',
  displayName: 'Ann',
  locale: 'en',
  createdAt: '2026-01-01T00:00:00Z',
  emailVerified: true,
};

function route(middleware: string[], extra: Partial<PageRoute> = {}): PageRoute {
  // An unknown name is part of what is tested: the table's type would refuse it, the runtime must too.
  return {
    id: 'account',
    path: 'account',
    middleware: middleware as MiddlewareName[],
    data: true,
    module: 'pages/test.tsx',
    ...extra,
  };
}

async function run(pageRoute: PageRoute, href: string, who: PublicUser | null, locale: Locale = 'en') {
  let fetched = 0;
  const url = new URL(href, 'http://localhost');
  try {
    const params = { slug: url.pathname.split('/').pop() ?? '' };
    // As react-router runs them: the route's middleware, then its loader.
    checkPage({ route: pageRoute, locale, params, url, user: who });
    const data = await loadPage({
      route: pageRoute,
      params,
      url,
      fetchData: async () => {
        fetched++;
        return { ok: true };
      },
    });
    return { data, fetched };
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get('location'), status: thrown.status, fetched };
    return { error: thrown, fetched };
  }
}

t.test('auth: a logged-out visitor goes to login with a redirect back to the whole path', async (t) => {
  const auth = route(['auth']);
  t.same(
    await run(auth, '/account', null),
    { redirect: '/login?redirect=%2Faccount', status: 302, fetched: 0 },
    'no data fetched',
  );
  t.same(await run(auth, '/account?tab=plays&x=%2F', null), {
    redirect: '/login?redirect=%2Faccount%3Ftab%3Dplays%26x%3D%252F',
    status: 302,
    fetched: 0,
  });
  t.same(
    await run(auth, '/th/account', null, 'th'),
    { redirect: '/th/login?redirect=%2Fth%2Faccount', status: 302, fetched: 0 },
    'Thai login for a Thai page',
  );
  t.same(
    await run(auth, '/account', user),
    { data: { ok: true }, fetched: 1 },
    'a logged-in user gets the page and its data',
  );
});

t.test('guest: a logged-in user leaves login and registration, to ?redirect= when it is on-site', async (t) => {
  const guest = route(['guest'], { path: 'login', data: undefined });
  const cases: [href: string, locale: Locale, expected: string][] = [
    ['/login', 'en', '/'],
    ['/th/login', 'th', '/th'],
    ['/login?redirect=%2Fbonus', 'en', '/bonus'],
    ['/login?redirect=/asdas?page=2%23list', 'en', '/asdas?page=2#list'],
    ['/th/registration?redirect=%2Fth%2Fasdas%2Ffirst-post', 'th', '/th/asdas/first-post'],
    ['/login?redirect=/asdas/first%20post', 'en', '/asdas/first%20post'],
    ['/login?redirect=//evil.com', 'en', '/'],
    ['/login?redirect=/%5Cevil.com', 'en', '/'],
    ['/login?redirect=%2F%5Cevil.com', 'en', '/'],
    ['/login?redirect=%5C%5Cevil.com', 'en', '/'],
    ['/login?redirect=https://evil.com/x', 'en', '/'],
    ['/login?redirect=https:evil.com', 'en', '/'],
    ['/th/login?redirect=javascript:alert(1)', 'th', '/th'],
    ['/login?redirect=%20javascript:alert(1)', 'en', '/'],
    ['/login?redirect=data:text/html,x', 'en', '/'],
    ['/login?redirect=', 'en', '/'],
    ['/login?redirect=%2F%09%2Fevil.com', 'en', '/'],
  ];
  for (const [href, locale, expected] of cases) {
    const outcome = await run(guest, href, user, locale);
    t.equal(outcome.redirect, expected, `${href} → ${expected}`);
    t.equal(outcome.status, 302);
  }
  t.same(
    await run(guest, '/login?redirect=//evil.com', null),
    { data: null, fetched: 0 },
    'a logged-out visitor sees the form',
  );
});

t.test('order: validate, then middleware, then data; an unknown name throws', async (t) => {
  const validated = route(['auth'], { path: 'asdas/:slug', validate: ({ slug }) => slug === 'ok' });
  const invalid = await run(validated, '/asdas/NOT', null);
  t.equal(invalid.redirect, undefined, 'validate fails before auth redirects');
  t.match(invalid.error, { type: 'DataWithResponseInit', init: { status: 404 } });
  t.match((invalid.error as { data: unknown }).data, {
    statusCode: 404,
    message: 'Page Not Found: /asdas/NOT',
    fatal: true,
  });
  t.equal((await run(validated, '/asdas/ok', null)).redirect, '/login?redirect=%2Fasdas%2Fok');

  const unknown = await run(route(['auth', 'nope']), '/account', user);
  t.type(unknown.error, Error);
  t.equal((unknown.error as Error).message, "Unknown route middleware: 'nope'.");
  t.equal(unknown.fetched, 0, 'no data for a page whose middleware is broken');
  for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty', '']) {
    t.throws(
      () => runRouteMiddleware([name], { user, locale: 'en', target: '/', redirectTo: null }),
      {
        message: `Unknown route middleware: '${name}'.`,
      },
      `inherited names are not middleware: '${name}'`,
    );
  }
  t.same(Object.keys(routeMiddleware).sort(), ['auth', 'guest']);
});
