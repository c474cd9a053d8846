import t from 'tap';
import { createRenderer, type ServerRequestContext } from '../../client/entry-server.tsx';
import type { PageDataSource } from '../../contract/page-data.ts';

// The renderer on its own, with data sources that fail the way real ones can.
function contextWith(source: PageDataSource, dev = false) {
  const logged: { error: unknown; message: string }[] = [];
  const context: ServerRequestContext = {
    user: null,
    isBot: false,
    runFormAction: async () => ({ ok: false, status: 400, values: {}, errors: {} }),
    logError: (error, message) => logged.push({ error, message }),
  };
  const renderer = createRenderer({
    dev,
    buildId: 'test-build',
    buildCheckIntervalMs: 3600000,
    allowedExternalOrigins: [],
    publicUrl: 'http://localhost:3000',
    dataSource: () => source,
  });
  return { context, logged, renderDocument: renderer.renderDocument, loadPayload: renderer.loadPayload };
}

t.test(
  'a data source that throws: 500 error screen, logged as "Произошла ошибка", no stack in production',
  async (t) => {
    const { context, logged, renderDocument } = contextWith(() => {
      throw new Error('database exploded at /secret/path.ts:12');
    });
    const outcome = await renderDocument('/', context);
    t.equal(outcome.type, 'page');
    if (outcome.type !== 'page') return;
    t.equal(outcome.status, 500);
    t.match(outcome.body, /data-testid="error-screen"/);
    t.match(outcome.body, /Internal Server Error/);
    t.notMatch(outcome.body + outcome.scripts, /exploded|secret\/path/, 'neither the message nor the stack leaks');
    t.equal(logged.length, 1);
    t.equal(logged[0]?.message, 'Произошла ошибка');
    t.match((logged[0]?.error as Error).message, /database exploded/, 'the real error is in the log');
  },
);

t.test('in development the error screen shows the message and stack', async (t) => {
  const { context, renderDocument } = contextWith(() => {
    throw new Error('broken in dev');
  }, true);
  const outcome = await renderDocument('/', context);
  if (outcome.type !== 'page') return t.fail('expected a page');
  t.match(outcome.body, /broken in dev/);
  t.match(outcome.body, /class="error-stack"/);
});

t.test('a component that throws while rendering: logged, 500 error screen, browser told to show it', async (t) => {
  // The home page expects an `intro`; without it the component throws during render.
  const { context, logged, renderDocument } = contextWith(() => ({ latestArticles: [] }));
  const outcome = await renderDocument('/th', context);
  if (outcome.type !== 'page') return t.fail('expected a page');
  t.equal(outcome.status, 500);
  t.equal(outcome.locale, 'th');
  t.match(outcome.body, /data-testid="error-screen"/);
  t.match(outcome.body, /ล้างข้อผิดพลาด/, 'the error screen speaks the page language');
  t.match(outcome.scripts, /"renderError":\{"statusCode":500,"message":"Internal Server Error"\}/);
  t.equal(logged[0]?.message, 'Произошла ошибка');
  t.type(logged[0]?.error, TypeError);
});

t.test('the payload of a failing page is a JSON 500 without details', async (t) => {
  const { context, loadPayload } = contextWith(() => {
    throw new Error('hidden detail');
  });
  const payload = await loadPayload('/asdas', context);
  t.equal(payload.status, 500);
  t.same(payload.body, { statusCode: 500, message: 'Internal Server Error', fatal: true });
});

t.test('hydration data cannot break out of its script tag', async (t) => {
  const { context, renderDocument } = contextWith(() => ({
    intro: { title: '</script><script>alert(1)</script>', html: '' },
    latestArticles: [],
    seo: { title: 'x', description: '', path: '/', alternates: ['en'], type: 'website', breadcrumbs: [] },
  }));
  const outcome = await renderDocument('/', context);
  if (outcome.type !== 'page') return t.fail('expected a page');
  t.notMatch(outcome.scripts, /<\/script><script>/);
  // The `<` of `</script` is written as \u003c (the one script-safe JSON function escapes `>` too).
  t.match(outcome.scripts, /\\u003c\/script/);
  t.notMatch(outcome.body, /<script>alert/, 'React escapes it in the markup');
});
