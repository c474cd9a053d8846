import t from 'tap';
import { iconFromSet } from '../../client/lib/icon-draw.ts';
import { createIconLoader } from '../../client/lib/icon-loader.ts';
import { lazyIconLoader } from '../../client/lib/lazy-icon-loader.ts';

const home = '<path fill="currentColor" d="M10 20v-6h4v6h5v-8h3L12 3L2 12h3v8z"/>';
const sets: Record<string, Record<string, string>> = {
  mdi: { home, account: '<path d="M1 1h2"/>', 'arrow-up': '<path d="M2 2h2"/>' },
  'circle-flags': { th: '<circle r="1"/>' },
};

type Handler = (url: URL) => Response | Promise<Response> | 'network-error';

/** A fetch that answers from `handler` and records every URL asked for. */
function fakeFetch(handler: Handler) {
  const calls: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://site.test');
    calls.push(url.origin === 'http://site.test' ? `${url.pathname}${url.search}` : url.href);
    const answer = await handler(url);
    if (answer === 'network-error') throw new TypeError('fetch failed');
    return answer;
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** What our endpoint answers: the requested icons of a set, 404 when none exist. */
function endpointAnswer(url: URL, extra: Record<string, unknown> = {}): Response {
  const collection = /\/([a-z0-9-]+)\.json$/.exec(url.pathname)?.[1] ?? '';
  const names = (url.searchParams.get('icons') ?? '').split(',');
  const set = sets[collection] ?? {};
  const icons = Object.fromEntries(names.filter((name) => set[name]).map((name) => [name, { body: set[name] }]));
  if (Object.keys(icons).length === 0) return Response.json({ statusCode: 404, message: 'not found' }, { status: 404 });
  return Response.json({ prefix: collection, icons, width: 24, height: 24, ...extra });
}

t.test('names asked for in the same tick: one request per collection, sorted, then cached', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = createIconLoader({ fetch });
  const [a, b, c] = await Promise.all([
    loader.load('mdi:home'),
    loader.load('circle-flags:th'),
    loader.load('mdi:account'),
  ]);
  t.same(calls.sort(), ['/api/_nuxt_icon/circle-flags.json?icons=th', '/api/_nuxt_icon/mdi.json?icons=account,home']);
  t.same(a, { body: home, left: 0, top: 0, width: 24, height: 24 });
  t.equal(b?.body, '<circle r="1"/>');
  t.equal(c?.body, '<path d="M1 1h2"/>');
  t.same(loader.peek('mdi:home'), a, 'kept in memory');
  t.equal(await loader.load('mdi:home'), a);
  t.equal(calls.length, 2, 'a loaded icon is not asked for again');
});

t.test('the same name asked for twice while in flight shares one request', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = createIconLoader({ fetch });
  const first = loader.load('mdi:home');
  await new Promise((resolve) => setTimeout(resolve, 0));
  const second = loader.load('mdi:home');
  t.equal(await first, await second);
  t.same(calls, ['/api/_nuxt_icon/mdi.json?icons=home']);
});

t.test('many names are split into requests of bounded size', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = createIconLoader({ fetch, maxNamesPerRequest: 2 });
  await Promise.all(['mdi:home', 'mdi:account', 'mdi:arrow-up'].map((name) => loader.load(name)));
  t.same(calls.sort(), ['/api/_nuxt_icon/mdi.json?icons=account,arrow-up', '/api/_nuxt_icon/mdi.json?icons=home']);
});

t.test('an icon missing from the answer is null, and not asked for again', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url, { not_found: ['nope'] }));
  const loader = createIconLoader({ fetch });
  const [found, missing] = await Promise.all([loader.load('mdi:home'), loader.load('mdi:nope')]);
  t.ok(found);
  t.equal(missing, null);
  t.equal(loader.peek('mdi:nope'), null);
  t.equal(await loader.load('mdi:nope'), null);
  t.equal(calls.length, 1);
});

t.test('a 404 from the endpoint is final: no fallback', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = createIconLoader({ fetch });
  t.equal(await loader.load('mdi:does-not-exist'), null);
  t.same(calls, ['/api/_nuxt_icon/mdi.json?icons=does-not-exist']);
});

for (const [failure, handler] of [
  ['a 500', () => new Response('boom', { status: 500 })],
  ['a 504', () => Response.json({ statusCode: 504 }, { status: 504 })],
  ['a network error', () => 'network-error' as const],
  ['an answer that is not JSON', () => new Response('<html>', { status: 200 })],
  ['a set for another prefix', () => Response.json({ prefix: 'other', icons: {} })],
] as [string, () => Response | 'network-error'][]) {
  t.test(`${failure} from the endpoint: the public API is asked once`, async (t) => {
    const { fetch, calls } = fakeFetch((url) => (url.origin === 'http://site.test' ? handler() : endpointAnswer(url)));
    const loader = createIconLoader({ fetch });
    const [a, b] = await Promise.all([loader.load('mdi:home'), loader.load('mdi:account')]);
    t.equal(a?.body, home);
    t.ok(b);
    t.same(calls, [
      '/api/_nuxt_icon/mdi.json?icons=account,home',
      'https://api.iconify.design/mdi.json?icons=account,home',
    ]);
  });
}

t.test('the fallback address is configurable; when it fails too the icon is null, without throwing', async (t) => {
  const { fetch, calls } = fakeFetch(() => 'network-error');
  const loader = createIconLoader({ fetch, fallbackUrl: 'https://icons.example.test/' });
  t.equal(await loader.load('mdi:home'), null);
  t.same(calls, ['/api/_nuxt_icon/mdi.json?icons=home', 'https://icons.example.test/mdi.json?icons=home']);
  t.equal(await loader.load('mdi:home'), null, 'remembered for the visit: no request storm');
  t.equal(calls.length, 2);
});

t.test('a request that hangs times out and falls back', async (t) => {
  const { fetch, calls } = fakeFetch((url) =>
    url.origin === 'http://site.test' ? new Promise<Response>(() => undefined) : endpointAnswer(url),
  );
  // The fake ignores the signal, so race it ourselves the way a real fetch would abort.
  const abortable = ((input: string, init: { signal: AbortSignal }) =>
    Promise.race([
      fetch(input, init),
      new Promise<never>((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason))),
    ])) as unknown as typeof globalThis.fetch;
  const loader = createIconLoader({ fetch: abortable, timeoutMs: 50 });
  // AbortSignal.timeout's timer does not keep Node running on its own (browsers have no such notion).
  const keepAlive = setTimeout(() => undefined, 5000);
  t.equal((await loader.load('mdi:home'))?.body, home);
  clearTimeout(keepAlive);
  t.equal(calls.length, 2);
});

t.test('invalid names are never requested', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = createIconLoader({ fetch });
  for (const name of ['home', 'mdi:', ':home', 'mdi:Home', 'mdi:../x', '../mdi:home', 'constructor:home', 'mdi:a,b']) {
    t.equal(await loader.load(name), null, name);
  }
  t.same(calls, []);
});

t.test('aliases and transformations are resolved; unsafe bodies are refused', async (t) => {
  const set = {
    prefix: 'x',
    icons: {
      base: { body: '<path d="M0 0"/>', width: 32, height: 16 },
      evil: { body: '<path onload="alert(1)" d="M0 0"/>' },
      script: { body: '<script>alert(1)</script>' },
    },
    aliases: { turned: { parent: 'base', rotate: 1 } },
    width: 24,
    height: 24,
  };
  t.same(iconFromSet(set, 'base'), { body: '<path d="M0 0"/>', left: 0, top: 0, width: 32, height: 16 });
  const turned = iconFromSet(set, 'turned');
  t.same([turned?.width, turned?.height], [16, 32], 'rotated by 90 degrees');
  t.match(turned?.body, /rotate\(90/);
  t.equal(iconFromSet(set, 'evil'), null);
  t.equal(iconFromSet(set, 'script'), null);
  t.equal(iconFromSet(set, 'constructor'), null);
});

t.test('lazyIconLoader: the loader comes with the first icon asked for; nothing is known before', async (t) => {
  const { fetch, calls } = fakeFetch((url) => endpointAnswer(url));
  const loader = lazyIconLoader({ fetch });
  t.equal(loader.peek('mdi:home'), undefined, 'nothing known before a load');
  const [a, b] = await Promise.all([loader.load('mdi:home'), loader.load('mdi:account')]);
  t.same(
    calls,
    ['/api/_nuxt_icon/mdi.json?icons=account,home'],
    "the options are the loader's; names of one tick are batched",
  );
  t.equal(a?.body, home);
  t.ok(b);
  t.equal(loader.peek('mdi:home'), a, 'then known');
  t.equal(await loader.load('mdi:nope'), null, 'an unknown icon is null');
});
