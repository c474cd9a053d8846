import t from 'tap';
import { createRenderer } from '../../client/entry.server.tsx';
import { splitLocale } from '../../contract/locales.ts';
import type { PageDataArgs } from '../../contract/page-data.ts';
import { pageRoutes } from '../../contract/routes.ts';
import { renderErrorLog } from '../../contract/page-error.ts';
import { payloadOf } from '../../lib/pages/payload.ts';
import { loadPage } from '../../lib/pages/pipeline.ts';
import { renderStateOf } from '../../lib/pages/render-state.ts';
import { startTestApp } from '../helpers/app.ts';

// The pipeline and the renderer on their own, with data sources that fail the way real ones can.
function rendererFor(dev: boolean) {
  return createRenderer({
    dev,
    buildId: 'test-build',
    buildCheckIntervalMs: 3600000,
    allowedExternalOrigins: [],
    publicUrl: 'http://localhost:3000',
  });
}

async function visit(path: string, source: (args: PageDataArgs) => unknown, dev = false) {
  const logged: { error: unknown; message: string }[] = [];
  const url = new URL(path, 'http://localhost');
  // The page Fastify's router would have matched: these paths are pages without params.
  const { locale, path: rest } = splitLocale(path);
  const route = pageRoutes.find((page) => `/${page.path}` === rest)!;
  const outcome = await loadPage({ route, locale, params: {} }, url, {
    user: null,
    sessionId: null,
    loadData: (_name, args) => source(args),
    logError: (error, message) => logged.push({ error, message }),
    exposeDetails: dev,
  });
  if (outcome.type === 'redirect') throw new Error('expected a page');
  const page = await rendererFor(dev).render(renderStateOf(outcome, { url, user: null, isBot: false }));
  return { outcome, page, logged };
}

t.test(
  'a data source that throws: 500 error screen, logged as "Произошла ошибка", no stack in production',
  async (t) => {
    const { page, logged } = await visit('/', () => {
      throw new Error('database exploded at /secret/path.ts:12');
    });
    t.equal(page.status, 500);
    t.match(page.body, /data-testid="error-screen"/);
    t.match(page.body, /Internal Server Error/);
    t.notMatch(page.body + page.hydration, /exploded|secret\/path/, 'neither the message nor the stack leaks');
    t.equal(logged.length, 1);
    t.equal(logged[0]?.message, 'Произошла ошибка');
    t.match((logged[0]?.error as Error).message, /database exploded/, 'the real error is in the log');
  },
);

t.test('in development the error screen shows the message and stack', async (t) => {
  const { page } = await visit(
    '/',
    () => {
      throw new Error('broken in dev');
    },
    true,
  );
  t.match(page.body, /broken in dev/);
  t.match(page.body, /class="error-stack"/);
});

t.test('a component that throws while rendering: logged, 500 error screen, browser told to show it', async (t) => {
  // The home page expects an `intro`; without it the component throws during render.
  const { page } = await visit('/th', () => ({ latestArticles: [] }));
  t.equal(page.status, 500);
  t.match(page.body, /data-testid="error-screen"/);
  t.match(page.body, /ล้างข้อผิดพลาด/, 'the error screen speaks the page language');
  t.match(page.hydration, /"renderError":\{"statusCode":500,"message":"Internal Server Error"\}/);
  t.type(page.failure, TypeError, 'the renderer hands the failure to the server');

  // The server logs what the renderer hands it (plugins/external/ssr.ts), with the spec's message.
  const { app, logs, close } = await startTestApp(
    { LOG_LEVEL: 'error' },
    {
      extraRoutes: (server) =>
        server.get('/__broken', (request, reply) =>
          server.renderer.sendDocument(request, reply, {
            pathname: '/th',
            search: '',
            locale: 'th',
            isBot: false,
            user: null,
            routeId: 'th:home',
            status: 200,
            data: { latestArticles: [] },
          }),
        ),
    },
  );
  t.teardown(close);
  const response = await app.inject('/__broken');
  t.equal(response.statusCode, 500);
  t.match(response.body, /ล้างข้อผิดพลาด/);
  const line = logs.find((entry) => entry.msg === renderErrorLog);
  t.ok(line, 'logged as "Произошла ошибка"');
  t.match((line?.err as { type?: string } | undefined)?.type, 'TypeError');
});

t.test('the payload of a failing page is a JSON 500 without details', async (t) => {
  const { outcome } = await visit('/asdas', () => {
    throw new Error('hidden detail');
  });
  const payload = payloadOf(outcome, 'test-build');
  t.equal(payload.status, 500);
  t.same(payload.body, { statusCode: 500, message: 'Internal Server Error', fatal: true });
});

t.test('hydration data cannot break out of its script tag', async (t) => {
  const { page } = await visit('/', () => ({
    intro: { title: '</script><script>alert(1)</script>', html: '' },
    latestArticles: [],
    seo: { title: 'x', description: '', path: '/', alternates: ['en'], type: 'website', breadcrumbs: [] },
  }));
  t.notMatch(page.hydration, /<\/script><script>/);
  // The `<` of `</script` is written as \u003c (the one script-safe JSON function escapes `>` too).
  t.match(page.hydration, /\\u003c\/script/);
  t.notMatch(page.body, /<script>alert/, 'React escapes it in the markup');
});
