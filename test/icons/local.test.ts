import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { loadIcons } from '../../lib/icons/local-sets.ts';
import { ICON_CACHE_CONTROL } from '../../routes/api/icons.ts';
import { testConfig } from '../helpers/app.ts';

// The local sets read straight from disk, to compare answers with.
const require = createRequire(import.meta.url);
type RawSet = {
  prefix: string;
  icons: Record<string, { body: string }>;
  aliases: Record<string, { parent: string }>;
  width: number;
  height: number;
};
const mdi = JSON.parse(readFileSync(require.resolve('@iconify-json/mdi/icons.json'), 'utf8')) as RawSet;
const flags = JSON.parse(readFileSync(require.resolve('@iconify-json/circle-flags/icons.json'), 'utf8')) as RawSet;

// An upstream that only counts: nothing in this file should ever reach it.
let upstreamCalls: string[] = [];
const upstream: Server = createServer((request, response) => {
  upstreamCalls.push(request.url ?? '');
  response.writeHead(404, { 'content-type': 'application/json' }).end('404');
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

/** The service with its icons only (no database, content, builds or pages). */
async function buildIconsApp(): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({ ICON_UPSTREAM_URL: upstreamUrl }),
    without: ['accounts', 'content', 'builds', 'pages'],
  });
  await app.ready();
  return app;
}

const app = await buildIconsApp();
t.teardown(() => app.close());
t.beforeEach(() => {
  upstreamCalls = [];
});

t.test('answers an installed set: the requested icons with the set dimensions', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=home,account');
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  const body = res.json();
  t.equal(body.prefix, 'mdi');
  t.same(Object.keys(body.icons).sort(), ['account', 'home']);
  t.equal(body.icons.home.body, mdi.icons.home!.body);
  t.equal(body.icons.account.body, mdi.icons.account!.body);
  t.equal(body.width, 24);
  t.equal(body.height, 24);
  t.equal(body.not_found, undefined, 'no not_found when every icon is found');
  t.equal(body.aliases, undefined, 'no aliases were asked for');
  t.same(upstreamCalls, [], 'an installed set never asks the upstream');
});

t.test('answers another installed set (circle-flags, 512 x 512)', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/circle-flags.json?icons=th,gb');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.prefix, 'circle-flags');
  t.equal(body.icons.th.body, flags.icons.th!.body);
  t.equal(body.icons.gb.body, flags.icons.gb!.body);
  t.equal(body.width, 512);
});

t.test('an alias comes with its parent icon', async (t) => {
  t.equal(mdi.aliases['home-add']?.parent, 'home-plus', 'fixture: home-add is an alias of home-plus in mdi');
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=home-add');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.same(body.aliases, { 'home-add': { parent: 'home-plus' } });
  t.same(Object.keys(body.icons), ['home-plus']);
  t.equal(body.icons['home-plus'].body, mdi.icons['home-plus']!.body);
  t.equal(body.not_found, undefined);
});

t.test('unknown icons in an installed set are listed in not_found', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=home,no-such-icon-here');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.same(Object.keys(body.icons), ['home']);
  t.same(body.not_found, ['no-such-icon-here']);
});

t.test('when no requested icon exists the answer is a 404 JSON error', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=no-such-icon-here,nor-this-one');
  t.equal(res.statusCode, 404);
  t.equal(res.headers['cache-control'], 'no-store');
  t.equal(res.headers.etag, undefined);
  const body = res.json();
  t.equal(body.statusCode, 404);
  t.equal(body.code, 'ICONS_NOT_FOUND');
  t.type(body.message, 'string');
  t.same(upstreamCalls, []);
});

t.test('object prototype names are never found as icons', async (t) => {
  const alone = await app.inject('/api/_nuxt_icon/mdi.json?icons=constructor');
  t.equal(alone.statusCode, 404);
  t.equal(alone.json().code, 'ICONS_NOT_FOUND');
  const mixed = await app.inject('/api/_nuxt_icon/mdi.json?icons=home,constructor');
  t.equal(mixed.statusCode, 200);
  t.same(Object.keys(mixed.json().icons), ['home']);
  t.same(mixed.json().not_found, ['constructor']);
});

t.test('repeated icons= params join', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=home&icons=account,abacus');
  t.equal(res.statusCode, 200);
  t.same(Object.keys(res.json().icons).sort(), ['abacus', 'account', 'home']);
});

t.test('order and duplicates do not change the answer', async (t) => {
  const a = await app.inject('/api/_nuxt_icon/mdi.json?icons=home,account');
  const b = await app.inject('/api/_nuxt_icon/mdi.json?icons=account,home,account');
  t.equal(a.statusCode, 200);
  t.equal(b.statusCode, 200);
  t.equal(a.body, b.body);
  t.equal(a.headers.etag, b.headers.etag);
});

t.test('exactly 100 icons is allowed', async (t) => {
  const names = Object.keys(mdi.icons).slice(0, 100);
  const res = await app.inject(`/api/_nuxt_icon/mdi.json?icons=${names.join(',')}`);
  t.equal(res.statusCode, 200);
  t.equal(Object.keys(res.json().icons).length, 100);
});

t.test('a 64-character collection name is valid (and, not installed, goes upstream)', async (t) => {
  const name = 'a'.repeat(64);
  const res = await app.inject(`/api/_nuxt_icon/${name}.json?icons=home`);
  t.equal(res.statusCode, 404, 'the counting upstream does not know it');
  t.equal(res.json().code, 'ICON_COLLECTION_NOT_FOUND');
  t.same(upstreamCalls, [`/${name}.json?icons=home`]);
});

t.test('bad requests are 400 JSON errors and never reach a set or the upstream', async (t) => {
  const long = 'a'.repeat(65);
  const cases: Record<string, string> = {
    'encoded path traversal': '/api/_nuxt_icon/..%2F..%2Fetc%2Fpasswd.json?icons=home',
    'encoded traversal into a package': '/api/_nuxt_icon/mdi%2F..%2F..%2Fmdi.json?icons=home',
    'backslash traversal': '/api/_nuxt_icon/..%5Cmdi.json?icons=home',
    '__proto__ collection': '/api/_nuxt_icon/__proto__.json?icons=home',
    'constructor collection': '/api/_nuxt_icon/constructor.json?icons=home',
    'collection of 65 characters': `/api/_nuxt_icon/${long}.json?icons=home`,
    'collection of 300 characters': `/api/_nuxt_icon/${'a'.repeat(300)}.json?icons=home`,
    'uppercase collection': '/api/_nuxt_icon/MDI.json?icons=home',
    'collection without .json': '/api/_nuxt_icon/mdi?icons=home',
    'collection with another extension': '/api/_nuxt_icon/mdi.svg?icons=home',
    'empty collection name': '/api/_nuxt_icon/.json?icons=home',
    'double extension': '/api/_nuxt_icon/mdi.json.json?icons=home',
    'double hyphen in collection': '/api/_nuxt_icon/circle--flags.json?icons=th',
    'leading hyphen in collection': '/api/_nuxt_icon/-mdi.json?icons=home',
    'icons missing': '/api/_nuxt_icon/mdi.json',
    'icons empty': '/api/_nuxt_icon/mdi.json?icons=',
    'empty name in the list': '/api/_nuxt_icon/mdi.json?icons=home,,account',
    'trailing comma': '/api/_nuxt_icon/mdi.json?icons=home,',
    'uppercase icon': '/api/_nuxt_icon/mdi.json?icons=Home',
    'icon name of 65 characters': `/api/_nuxt_icon/mdi.json?icons=${long}`,
    'icon with traversal': '/api/_nuxt_icon/mdi.json?icons=..%2fhome',
    'icon with a prefix': '/api/_nuxt_icon/mdi.json?icons=mdi:home',
    'icon with spaces': '/api/_nuxt_icon/mdi.json?icons=home%20',
    '__proto__ icon': '/api/_nuxt_icon/mdi.json?icons=__proto__',
    '101 icons': `/api/_nuxt_icon/mdi.json?icons=${Object.keys(mdi.icons).slice(0, 101).join(',')}`,
    '101 icons in repeated params': `/api/_nuxt_icon/mdi.json?${Array.from({ length: 101 }, () => 'icons=home').join('&')}`,
    'unknown set, bad icon name': '/api/_nuxt_icon/fake.json?icons=A',
  };
  for (const [label, url] of Object.entries(cases)) {
    const res = await app.inject(url);
    t.equal(res.statusCode, 400, `${label}: status`);
    const body = res.json();
    t.equal(body.statusCode, 400, `${label}: statusCode`);
    t.equal(body.code, 'INVALID_ICON_REQUEST', `${label}: code`);
    t.type(body.message, 'string', `${label}: message`);
    t.equal(res.headers['cache-control'], 'no-store', `${label}: no-store`);
  }
  t.same(upstreamCalls, [], 'no bad request reached the upstream');
});

t.test('answers carry long-lived cache headers and a strong ETag', async (t) => {
  const res = await app.inject('/api/_nuxt_icon/mdi.json?icons=home');
  t.equal(res.headers['cache-control'], ICON_CACHE_CONTROL);
  t.equal(res.headers['cache-control'], 'public, max-age=604800, stale-while-revalidate=86400');
  const etag = res.headers.etag as string;
  t.match(etag, /^"[A-Za-z0-9_-]{16,}"$/, 'a strong (not W/) quoted ETag');
  const other = await app.inject('/api/_nuxt_icon/mdi.json?icons=account');
  t.not(other.headers.etag, etag, 'a different body has a different ETag');
});

t.test('If-None-Match with the current ETag answers 304 without a body', async (t) => {
  const first = await app.inject('/api/_nuxt_icon/mdi.json?icons=home');
  const etag = first.headers.etag as string;
  for (const header of [etag, `W/${etag}`, `"something-else", ${etag}`, '*']) {
    const res = await app.inject({ url: '/api/_nuxt_icon/mdi.json?icons=home', headers: { 'if-none-match': header } });
    t.equal(res.statusCode, 304, `304 for If-None-Match: ${header}`);
    t.equal(res.body, '', 'no body');
    t.equal(res.headers.etag, etag);
    t.equal(res.headers['cache-control'], ICON_CACHE_CONTROL);
  }
  const stale = await app.inject({
    url: '/api/_nuxt_icon/mdi.json?icons=home',
    headers: { 'if-none-match': '"an-old-etag"' },
  });
  t.equal(stale.statusCode, 200);
  t.equal(stale.body, first.body);
});

t.test('loadIcons renders installed icons by collection:name without HTTP', async (t) => {
  const result = await loadIcons([
    'mdi:home',
    'mdi:home-add',
    'circle-flags:th',
    'mdi:no-such-icon-here',
    'mdi:constructor',
    'fake:star',
    'MDI:home',
    'home',
    '../mdi:home',
    'mdi:../home',
  ]);
  t.same(Object.keys(result).sort(), ['circle-flags:th', 'mdi:home', 'mdi:home-add']);
  t.same(result['mdi:home'], { body: mdi.icons.home!.body, left: 0, top: 0, width: 24, height: 24 });
  t.equal(result['mdi:home-add']?.body, mdi.icons['home-plus']!.body, 'an alias renders its parent');
  t.equal(result['circle-flags:th']?.width, 512);
  t.equal(result['circle-flags:th']?.body, flags.icons.th!.body);
  t.same(upstreamCalls, [], 'a set that is not installed is not fetched at render time');
});

t.test('app.icons.load is the same in-process lookup', async (t) => {
  t.same(await app.icons.load(['mdi:account', 'fake:star']), {
    'mdi:account': { body: mdi.icons.account!.body, left: 0, top: 0, width: 24, height: 24 },
  });
  t.same(upstreamCalls, []);
});
