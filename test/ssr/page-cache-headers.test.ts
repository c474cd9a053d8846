import t from 'tap';
import { localePath, locales } from '../../contract/locales.ts';
import { pageRoutes, type PageId } from '../../contract/routes.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// A hit is written to the socket from what the entry stores, a miss through the hooks
// (decision 0035): both from one header definition (lib/pages/page-headers.ts). For every page of
// the route table, in each language, document and payload: the hit that follows a miss answers
// the same bytes and the same headers, in each encoding and as a 304.
const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);

/** An address of each page: the table's own path, with a parameter or a content page filled in. */
const sample: Partial<Record<PageId, string>> = { article: '/asdas/rtp-explained', content: '/bonus' };
/** The pages a visitor without a session is sent away from: never stored. */
const personal: PageId[] = ['play', 'account'];

const perRequest = new Set(['x-request-id', 'x-cache', 'date']);
type Answer = Awaited<ReturnType<typeof app.inject>>;
const lasting = (answer: Answer, leaveOut: string[] = []) =>
  Object.entries(answer.headers)
    .filter(([name]) => !perRequest.has(name) && !leaveOut.includes(name))
    .sort(([a], [b]) => a.localeCompare(b));
const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { 'user-agent': browserUserAgent, 'accept-language': 'en', ...headers } });

for (const locale of locales) {
  for (const route of pageRoutes) {
    const path = localePath(locale, sample[route.id] ?? `/${route.path}`);
    for (const url of [path, `${path === '/' ? '' : path}/_payload.json`]) {
      t.test(`${url}: a hit answers as the miss that filled it`, async (t) => {
        if (personal.includes(route.id) && !url.endsWith('_payload.json')) {
          const answers = [await get(url), await get(url)];
          t.same(
            answers.map((answer) => answer.headers['x-cache']),
            ['MISS', 'MISS'],
            'sent to log in: never stored',
          );
          return;
        }
        for (const encoding of ['br, gzip', 'gzip', '']) {
          const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
          const miss = await get(url, headers);
          t.equal(miss.statusCode, 200, `${encoding || 'identity'}: a page`);
          t.equal(miss.headers['x-cache'], encoding === 'br, gzip' ? 'MISS' : 'HIT', 'rendered once');
          const hit = await get(url, headers);
          t.equal(hit.headers['x-cache'], 'HIT');
          t.same(hit.rawPayload, miss.rawPayload, `${encoding || 'identity'}: the same bytes`);
          t.same(lasting(hit), lasting(miss), `${encoding || 'identity'}: the same headers`);
          const revalidated = await get(url, { ...headers, 'if-none-match': String(hit.headers.etag) });
          t.equal(revalidated.statusCode, 304);
          t.same(lasting(revalidated), lasting(hit, ['content-encoding', 'content-length']), '304: the same headers');
        }
      });
    }
  }
}
