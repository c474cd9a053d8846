import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IconifyJSON } from '@iconify/types';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { iconFromSet } from '../../client/lib/icon-draw.ts';
import { createIconLoader } from '../../client/lib/icon-loader.ts';
import type { IconsPluginOptions } from '../../plugins/app/icons.ts';
import type { RateLimitSettings } from '../../lib/rate-limit/settings.ts';
import { testConfig } from '../helpers/app.ts';

/**
 * Issue 25, item 6: what an attacker can make the icon endpoint do to the upstream Iconify API
 * (how many calls) and to the browser (what SVG it inserts as markup). Against a stand-in for the
 * upstream on a real socket; the collection in the path picks what it answers:
 *   real       the icons of `realIcons` (bodies as the Iconify API sends them)
 *   hostile    the icons of `hostileIcons` (bodies that try to run script or load other origins)
 *   held-*     an icon set, once the test lets it go (`release`)
 *   anything else   HTTP 404 with the body `404`, as the Iconify API answers an unknown prefix
 */

/** Bodies of real icons, verbatim from the @iconify-json packages (tabler 1.2.41, svg-spinners 1.2.4, logos 1.2.19, mdi, circle-flags). */
const realIcons: Record<string, string> = {
  // Strokes with case-sensitive SVG attribute names on a group.
  'tabler-home':
    '<g fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2"><path d="M5 12H3l9-9l9 9h-2M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7"/><path d="M9 21v-6a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v6"/></g>',
  // `<use href="#id">` inside the icon.
  'tabler-file-isr':
    '<defs><path id="SVGrajsLe6H" d="M15 3v4a1 1 0 0 0 1 1h4"/></defs><g fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2"><use href="#SVGrajsLe6H"/><use href="#SVGrajsLe6H"/><path d="M6 8V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2v-7"/><path d="m3 15l3-3l3 3"/></g>',
  'mdi-home': '<path fill="currentColor" d="M10 20v-6h4v6h5v-8h3L12 3L2 12h3v8z"/>',
  // An animated spinner: animateTransform inside a path.
  'spinner-180-ring':
    '<path fill="currentColor" d="M12,4a8,8,0,0,1,7.89,6.7A1.53,1.53,0,0,0,21.38,12h0a1.5,1.5,0,0,0,1.48-1.75,11,11,0,0,0-21.72,0A1.5,1.5,0,0,0,2.62,12h0a1.53,1.53,0,0,0,1.49-1.3A8,8,0,0,1,12,4Z"><animateTransform attributeName="transform" dur="0.75s" repeatCount="indefinite" type="rotate" values="0 12 12;360 12 12"/></path>',
  // Animations chained by id (`begin="id.end"`), with keySplines.
  'spinner-bars-scale':
    '<rect width="2.8" height="12" x="1" y="6" fill="currentColor"><animate id="SVGLQdHQe4p" attributeName="y" begin="0;SVGg3vsIeGm.end-0.1s" calcMode="spline" dur="0.6s" keySplines=".36,.61,.3,.98;.36,.61,.3,.98" values="6;1;6"/><animate attributeName="height" begin="0;SVGg3vsIeGm.end-0.1s" calcMode="spline" dur="0.6s" keySplines=".36,.61,.3,.98;.36,.61,.3,.98" values="12;22;12"/></rect><rect width="2.8" height="12" x="20.2" y="6" fill="currentColor"><animate id="SVGg3vsIeGm" attributeName="y" begin="SVGLQdHQe4p.begin+0.4s" calcMode="spline" dur="0.6s" keySplines=".36,.61,.3,.98;.36,.61,.3,.98" values="6;1;6"/><animate attributeName="height" begin="SVGLQdHQe4p.begin+0.4s" calcMode="spline" dur="0.6s" keySplines=".36,.61,.3,.98;.36,.61,.3,.98" values="12;22;12"/></rect>',
  // A filter referenced with url(#id).
  'spinner-gooey-balls-1':
    '<defs><filter id="SVGg4wYRcsm"><feGaussianBlur in="SourceGraphic" result="y" stdDeviation="1.5"/><feColorMatrix in="y" result="z" values="1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 18 -7"/><feBlend in="SourceGraphic" in2="z"/></filter></defs><g fill="currentColor" filter="url(#SVGg4wYRcsm)"><circle cx="4" cy="12" r="3"><animate attributeName="cx" calcMode="spline" dur="0.75s" keySplines=".56,.52,.17,.98;.56,.52,.17,.98" repeatCount="indefinite" values="4;9;4"/><animate attributeName="r" calcMode="spline" dur="0.75s" keySplines=".56,.52,.17,.98;.56,.52,.17,.98" repeatCount="indefinite" values="3;8;3"/></circle><circle cx="15" cy="12" r="8"><animate attributeName="cx" calcMode="spline" dur="0.75s" keySplines=".56,.52,.17,.98;.56,.52,.17,.98" repeatCount="indefinite" values="15;20;15"/><animate attributeName="r" calcMode="spline" dur="0.75s" keySplines=".56,.52,.17,.98;.56,.52,.17,.98" repeatCount="indefinite" values="8;3;8"/></circle></g>',
  // A gradient.
  'logos-kotlin-icon':
    '<defs><linearGradient id="SVGxUOMRb3d" x1="99.991%" x2=".01%" y1="-.011%" y2="100.01%"><stop offset=".344%" stop-color="#e44857"/><stop offset="46.89%" stop-color="#c711e1"/><stop offset="100%" stop-color="#7f52ff"/></linearGradient></defs><path fill="url(#SVGxUOMRb3d)" d="M256 256H0V0h256L128 127.949z"/>',
  // A mask.
  'flag-th':
    '<mask id="SVGqdEcMdXs"><circle cx="256" cy="256" r="256" fill="#fff"/></mask><g mask="url(#SVGqdEcMdXs)"><path fill="#d80027" d="M0 0h512v89l-79.2 163.7L512 423v89H0v-89l82.7-169.6L0 89z"/><path fill="#eee" d="M0 89h512v78l-42.6 91.2L512 345v78H0v-78l40-92.5L0 167z"/><path fill="#0052b4" d="M0 167h512v178H0z"/></g>',
};

/** Hostile bodies, and what must come out of each: the drawing without what could run or load anything. */
const hostileIcons: Record<string, { body: string; clean: string }> = {
  script: {
    body: '<path d="M0 0h24v24H0z"/><script>alert(1)</script><SCRIPT>alert(2)</SCRIPT>',
    clean: '<path d="M0 0h24v24H0z"/>',
  },
  'foreign-object': {
    body: '<foreignObject width="24" height="24"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject><circle cx="12" cy="12" r="10"/>',
    clean: '<circle cx="12" cy="12" r="10"/>',
  },
  handlers: {
    body: '<circle cx="12" cy="12" r="10" onerror="alert(1)" onload="alert(2)" ONCLICK="alert(3)"/><animate onbegin="alert(4)" attributeName="r" values="1;2" dur="1s"/>',
    clean: '<circle cx="12" cy="12" r="10"/><animate attributeName="r" values="1;2" dur="1s"/>',
  },
  'script-link': {
    body: '<a href="javascript:alert(1)"><path d="M1 1h22v22H1z"/></a><a xlink:href="jav&#x61;script:alert(1)"><circle r="1"/></a>',
    clean: '<path d="M1 1h22v22H1z"/><circle r="1"/>',
  },
  'remote-use': {
    body: '<defs><path id="dot" d="M0 0h1"/></defs><use href="https://evil.example/sprite.svg#x"/><use xlink:href="https://evil.example/s.svg#y"/><use href="#dot"/><use href=" javascript:alert(1)"/>',
    clean: '<defs><path id="dot" d="M0 0h1"/></defs><use/><use/><use href="#dot"/><use/>',
  },
  'animated-href': {
    body: '<path d="M0 0"><animate attributeName="href" values="javascript:alert(1)"/><set attributeName="onmouseover" to="alert(1)"/><animate attributeName="fill" values="url(https://evil.example/p#g);red" dur="1s"/></path>',
    clean: '<path d="M0 0"><animate/><animate attributeName="fill" dur="1s"/></path>',
  },
  // Attributes the specifications give these elements, each with a value that would load or run something.
  'spec-attributes': {
    body: '<path d="M0 0" cursor="url(https://evil.example/c.png),auto" xml:base="https://evil.example/" tabindex="1"/><animate attributeName="xlink:href" values="#a" dur="1s"/><animate attributeName="ONCLICK" to="alert(1)"/><animateTransform attributeName="style" to="fill:red"/>',
    clean: '<path d="M0 0"/><animate values="#a" dur="1s"/><animate/><animateTransform to="fill:red"/>',
  },
  styles: {
    body: '<path style="fill:url(https://evil.example/x)" d="M0 0"/><rect width="2" height="2" style="mask-type:alpha"/><rect style="background:expression(alert(1))" width="1"/><style>@import url(https://evil.example/x.css)</style>',
    clean: '<path d="M0 0"/><rect width="2" height="2" style="mask-type:alpha"/><rect width="1"/>',
  },
  'remote-paint': {
    body: '<image href="https://evil.example/track.png" width="24" height="24"/><filter><feImage href="https://evil.example/x"/></filter><path fill="url(https://evil.example/p.svg#g)" d="M0 0"/><path fill="u\\72l(https://evil.example/)" d="M1 1"/>',
    clean: '<filter/><path d="M0 0"/><path d="M1 1"/>',
  },
  'parser-breakout': {
    body: '<style><img src=x onerror=alert(1)></style><title><img src=x onerror=alert(1)></title><text x="1">&lt;img src=x onerror=alert(1)&gt;</text><!-- <img src=x onerror=alert(1)> --><![CDATA[<img src=x onerror=alert(1)>]]>',
    clean: '<text x="1">&#x3C;img src=x onerror=alert(1)></text>',
  },
};

let calls: string[] = [];
/** Upstream requests for `held-*` collections, answered when the test says so. */
const held: Array<() => void> = [];
/** Who waits for the next event of the test (an upstream request held, an answer received). */
let waiting: Array<() => void> = [];
const nextEvent = () => new Promise<void>((resolve) => waiting.push(resolve));
function event(): void {
  const wake = waiting;
  waiting = [];
  for (const resolve of wake) resolve();
}

function answerSet(prefix: string, table: Record<string, string>, url: URL, response: ServerResponse): void {
  const names = (url.searchParams.get('icons') ?? '').split(',');
  const icons: Record<string, { body: string }> = {};
  const notFound: string[] = [];
  for (const name of names) {
    if (Object.hasOwn(table, name)) icons[name] = { body: table[name]! };
    else notFound.push(name);
  }
  const body = {
    prefix,
    lastModified: 1700000000,
    width: 24,
    height: 24,
    icons,
    ...(notFound.length ? { not_found: notFound } : {}),
  };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  calls.push(request.url ?? '');
  const url = new URL(request.url ?? '/', 'http://upstream');
  const collection = url.pathname.replace(/^\//, '').replace(/\.json$/, '');
  if (collection === 'real') return answerSet('real', realIcons, url, response);
  if (collection === 'hostile') {
    return answerSet(
      'hostile',
      Object.fromEntries(Object.entries(hostileIcons).map(([name, icon]) => [name, icon.body])),
      url,
      response,
    );
  }
  if (collection.startsWith('held-')) {
    held.push(() => answerSet(collection, { dot: '<circle r="1"/>' }, url, response));
    event();
    return;
  }
  response.writeHead(404, { 'content-type': 'application/json' }).end('404');
}

const upstream = createServer(handle);
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
t.teardown(async () => {
  for (const release of held.splice(0)) release();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

t.beforeEach(() => {
  calls = [];
});

/** The process's clock for the per-minute upstream allowance, held still: the counts below never depend on how fast the machine is. */
const stillClock = () => 1_000_000;

async function buildIconsApp(
  icons: IconsPluginOptions = {},
  limits: Partial<RateLimitSettings> = {},
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({ ICON_UPSTREAM_URL: upstreamUrl }),
    without: ['accounts', 'content', 'builds', 'pages'],
    icons: { now: stillClock, ...icons },
    rateLimits: { limits },
  });
  await app.ready();
  return app;
}

const perIp = 20; // lib/rate-limit/settings.ts iconUpstreamPerIp.max

function get(app: FastifyInstance, url: string, remoteAddress = '203.0.113.7') {
  return app.inject({ method: 'GET', url, remoteAddress });
}

function countBy(answers: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of answers) counts[res.statusCode] = (counts[res.statusCode] ?? 0) + 1;
  return counts;
}

t.test('300 distinct unknown collections from one client: a few upstream calls, the rest 429', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answers: LightMyRequestResponse[] = [];
  for (let index = 0; index < 300; index++)
    answers.push(await get(app, `/api/_nuxt_icon/unknown-${index}.json?icons=home`));

  const counts = countBy(answers);
  // The per-address window is a minute long; should this loop straddle the end of one, a second
  // window's allowance is spent too. Either way far below one call per request.
  t.ok(
    calls.length >= 1 && calls.length <= 2 * perIp,
    `${calls.length} upstream calls for 300 requests (allowance ${perIp} a minute)`,
  );
  t.equal(counts[404], calls.length, 'every upstream call answered its request: no such collection');
  t.equal((counts[404] ?? 0) + (counts[429] ?? 0), 300, 'the others are refused with 429');

  const refused = answers.find((res) => res.statusCode === 429)!;
  t.match(refused.json(), {
    statusCode: 429,
    code: 'RATE_LIMITED',
    message: /^Too many icon requests for the icon service\. Try again in \d+ seconds\.$/,
  });
  t.match(refused.headers['retry-after'], /^[1-9]\d*$/, 'with Retry-After');
  t.equal(refused.headers['cache-control'], 'no-store');
  t.same(Object.keys(refused.json()).sort(), ['code', 'message', 'statusCode']);

  const before = calls.length;
  const other = await get(app, '/api/_nuxt_icon/unknown-other.json?icons=home', '198.51.100.9');
  t.equal(other.statusCode, 404, 'another address still has its own allowance');
  t.equal(calls.length, before + 1);
});

t.test('the whole process has an allowance too: upstream calls a minute, whatever the addresses', async (t) => {
  const app = await buildIconsApp({ upstreamPerMinute: 30 });
  t.teardown(() => app.close());
  const answers: LightMyRequestResponse[] = [];
  // Five addresses, each within its own allowance of 20.
  for (let client = 1; client <= 5; client++) {
    for (let index = 0; index < 10; index++) {
      answers.push(await get(app, `/api/_nuxt_icon/spread-${client}-${index}.json?icons=home`, `192.0.2.${client}`));
    }
  }
  t.equal(calls.length, 30, 'no more upstream calls than the process allows in a minute');
  t.same(countBy(answers), { 404: 30, 503: 20 });
  const busy = answers.find((res) => res.statusCode === 503)!;
  t.match(busy.json(), {
    statusCode: 503,
    code: 'ICON_UPSTREAM_BUSY',
    message: /^The icon service is busy\. Try again in \d+ seconds\.$/,
  });
  t.match(busy.headers['retry-after'], /^[1-9]\d*$/);
  t.equal(busy.headers['cache-control'], 'no-store');
});

t.test('at most 4 upstream calls at once for the whole process; the others are 503 at once', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  let settled = 0;
  const requests = Array.from({ length: 10 }, (_, index) =>
    get(app, `/api/_nuxt_icon/held-${index}.json?icons=dot`, `192.0.2.${index + 10}`).then((res) => {
      settled += 1;
      event();
      return res;
    }),
  );
  // Wait (for the events themselves, no clock) until four calls are held and six answered.
  while (held.length < 4 || settled < 6) await nextEvent();
  t.equal(calls.length, 4, 'four calls reached the upstream');
  t.equal(settled, 6, 'six requests were answered without waiting for them');
  for (const release of held.splice(0)) release();
  const answers = await Promise.all(requests);
  t.same(countBy(answers), { 200: 4, 503: 6 });
  const busy = answers.find((res) => res.statusCode === 503)!;
  t.equal(busy.json().code, 'ICON_UPSTREAM_BUSY');
  t.equal(busy.headers['retry-after'], '1');
  t.equal(calls.length, 4);
});

t.test('the same unknown collection asked 50 times, for 50 different icons: one upstream call', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answers: LightMyRequestResponse[] = [];
  for (let index = 0; index < 50; index++)
    answers.push(await get(app, `/api/_nuxt_icon/no-such-set.json?icons=icon-${index},other-${index}`));
  t.same(
    calls,
    ['/no-such-set.json?icons=icon-0,other-0'],
    'one call: the first; the answer is remembered for the collection',
  );
  for (const res of answers) {
    t.same(res.json(), {
      statusCode: 404,
      code: 'ICON_COLLECTION_NOT_FOUND',
      message: 'No icon collection named no-such-set',
    });
  }
  t.equal(answers[49]!.headers['cache-control'], 'no-store');
});

t.test('the same unknown collection asked 50 times at once: no more calls than the process runs at once', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, index) => get(app, `/api/_nuxt_icon/no-such-set.json?icons=icon-${index}`)),
  );
  t.ok(calls.length >= 1 && calls.length <= 4, `${calls.length} upstream calls (at most 4 run at once)`);
  const counts = countBy(answers);
  t.equal(
    (counts[404] ?? 0) + (counts[429] ?? 0) + (counts[503] ?? 0),
    50,
    'each is the answer (404), over its address allowance (429) or busy (503)',
  );
  t.ok((counts[404] ?? 0) >= calls.length);
  t.equal((await get(app, '/api/_nuxt_icon/no-such-set.json?icons=icon-x')).statusCode, 404);
  t.ok(calls.length <= 4, 'and then it is remembered');
});

t.test('icons the upstream has none of are remembered too, in any combination', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  t.equal((await get(app, '/api/_nuxt_icon/real.json?icons=nope-1,nope-2')).statusCode, 404);
  t.equal((await get(app, '/api/_nuxt_icon/real.json?icons=nope-2')).statusCode, 404);
  t.equal((await get(app, '/api/_nuxt_icon/real.json?icons=nope-1')).json().code, 'ICONS_NOT_FOUND');
  t.same(calls, ['/real.json?icons=nope-1,nope-2']);
  t.equal(
    (await get(app, '/api/_nuxt_icon/real.json?icons=mdi-home,nope-1')).statusCode,
    200,
    'a request with a real icon still asks',
  );
  t.equal(calls.length, 2);
});

t.test('bad collection or icon names are 400 with a code, and never reach the upstream', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const collections = [
    'Mdi',
    'MDI',
    'a_b',
    '-abc',
    'abc-',
    'a--b',
    'a.b',
    'a%20b',
    'x'.repeat(65),
    'constructor',
    '__proto__',
    'caf%C3%A9',
    'a%2Cb',
  ];
  const icons = [
    'Home',
    'home_alt',
    '-home',
    'home-',
    'home--alt',
    'home.alt',
    '%3Cscript%3E',
    'javascript%3Aalert(1)',
    'a,,b',
    'x'.repeat(65),
    Array.from({ length: 101 }, (_, i) => `i${i}`).join(','),
  ];
  const urls = [
    ...collections.map((collection) => `/api/_nuxt_icon/${collection}.json?icons=home`),
    ...icons.map((names) => `/api/_nuxt_icon/not-installed.json?icons=${names}`),
    '/api/_nuxt_icon/not-installed.json',
    '/api/_nuxt_icon/not-installed.json?icons=',
    '/api/_nuxt_icon/not-installed?icons=home',
  ];
  for (const url of urls) {
    const res = await get(app, url);
    t.equal(res.statusCode, 400, `${url.slice(0, 80)}: 400`);
    t.match(
      res.json(),
      { statusCode: 400, code: 'INVALID_ICON_REQUEST', message: String },
      `${url.slice(0, 80)}: the error`,
    );
  }
  t.same(calls, [], 'no upstream call for any of them');
  t.equal(
    (await get(app, '/api/_nuxt_icon/not-installed.json?icons=home')).statusCode,
    404,
    'a good name does go upstream',
  );
  t.equal(calls.length, 1);
});

t.test('upstream SVG comes out without script, handlers, foreign content or references to other origins', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const names = Object.keys(hostileIcons).sort();
  const res = await get(app, `/api/_nuxt_icon/hostile.json?icons=${names.join(',')}`);
  t.equal(res.statusCode, 200);
  const set = res.json<IconifyJSON>();
  for (const name of names)
    t.equal(set.icons[name]?.body, hostileIcons[name]!.clean, `${name}: what is left is the drawing`);
  // Only parser-breakout keeps a text that reads like markup, escaped, as the text it is.
  const bodies = names
    .filter((name) => name !== 'parser-breakout')
    .map((name) => set.icons[name]!.body)
    .join('');
  for (const bad of [
    '<script',
    'SCRIPT',
    'foreignObject',
    'onerror',
    'onload',
    'onbegin',
    'ONCLICK',
    'javascript',
    'evil.example',
    '<a ',
    '<image',
    'feImage',
    '<style',
    '<set',
    '<title',
    'expression',
    '<img',
  ]) {
    t.notOk(bodies.includes(bad), `nothing of ${bad} in the bodies`);
  }
  // What the browser then draws (client/lib/icon-draw.ts, which also refuses any body whose text
  // merely mentions an event handler, as parser-breakout's does).
  for (const name of names)
    if (name !== 'parser-breakout') t.ok(iconFromSet(set, name), `${name}: the browser draws it`);
});

t.test('real icons come out unchanged: strokes, use, animations, filters, gradients, masks', async (t) => {
  const app = await buildIconsApp();
  t.teardown(() => app.close());
  const names = Object.keys(realIcons).sort();
  const res = await get(app, `/api/_nuxt_icon/real.json?icons=${names.join(',')}`);
  t.equal(res.statusCode, 200);
  const set = res.json<IconifyJSON>();
  t.same(Object.keys(set.icons).sort(), names);
  for (const name of names) {
    t.equal(set.icons[name]!.body, realIcons[name], `${name}: byte for byte`);
    t.equal(iconFromSet(set, name)?.body, realIcons[name], `${name}: drawn as it is`);
  }
});

t.test('installed sets and remembered answers are never limited', async (t) => {
  const app = await buildIconsApp(
    { upstreamPerMinute: 1, upstreamConcurrency: 1 },
    { iconUpstreamPerIp: { max: 1, windowMs: 60_000 } },
  );
  t.teardown(() => app.close());
  t.equal((await get(app, '/api/_nuxt_icon/gone-a.json?icons=home')).statusCode, 404, 'the one allowed upstream call');
  t.equal(
    (await get(app, '/api/_nuxt_icon/gone-b.json?icons=home')).statusCode,
    429,
    'this address has used its allowance',
  );
  t.equal(
    (await get(app, '/api/_nuxt_icon/gone-c.json?icons=home', '198.51.100.20')).statusCode,
    503,
    'and the process its own',
  );
  t.equal(calls.length, 1);

  const mdi = Object.keys(
    JSON.parse(readFileSync(new URL('../../node_modules/@iconify-json/mdi/icons.json', import.meta.url), 'utf8')).icons,
  ).slice(0, 150);
  const answers: LightMyRequestResponse[] = [];
  for (const name of mdi) answers.push(await get(app, `/api/_nuxt_icon/mdi.json?icons=${name}`));
  answers.push(await get(app, '/api/_nuxt_icon/circle-flags.json?icons=th,gb'));
  answers.push(await get(app, '/api/_nuxt_icon/mdi.json?icons=no-such-icon-here'));
  t.same(countBy(answers), { 200: 151, 404: 1 }, '151 different installed icons and a missing one, none refused');
  t.equal(
    (await get(app, '/api/_nuxt_icon/gone-a.json?icons=other')).statusCode,
    404,
    'a remembered unknown collection is answered, not refused',
  );
  t.equal(calls.length, 1, 'and none of it asked the upstream');
});

t.test('the browser asks the public service when our endpoint refuses (429) or is busy (503)', async (t) => {
  for (const status of [429, 503]) {
    const asked: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      const url = new URL(String(input), 'http://site.test');
      asked.push(url.origin);
      if (url.origin === 'http://site.test')
        return Response.json({ statusCode: status, code: 'X', message: 'x' }, { status });
      return Response.json({
        prefix: 'real',
        icons: { 'mdi-home': { body: realIcons['mdi-home'] } },
        width: 24,
        height: 24,
      });
    }) as typeof globalThis.fetch;
    const loader = createIconLoader({ fetch, fallbackUrl: 'https://icons.example.test' });
    const icon = await loader.load('real:mdi-home');
    t.equal(icon?.body, realIcons['mdi-home'], `${status}: drawn from the fallback`);
    t.same(
      asked,
      ['http://site.test', 'https://icons.example.test'],
      `${status}: our endpoint, then the fallback once`,
    );
  }
});
