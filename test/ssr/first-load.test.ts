import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import t from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import { projectRoot } from '../../lib/build-info.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// What a visitor's browser downloads before the page hydrates: the scripts the HTML names
// (entry, preloads), read from the production build in dist/.
const { app, close } = await startTestApp();
t.teardown(close);

const clientDir = join(projectRoot, 'dist/client');

async function firstLoadScripts(url: string): Promise<string[]> {
  const response = await app.inject({ url, headers: { 'user-agent': browserUserAgent } });
  t.equal(response.statusCode, 200, url);
  const sources = [
    ...response.body.matchAll(/<script type="module"[^>]* src="([^"]+)"/g),
    ...response.body.matchAll(/<link rel="modulepreload"[^>]* href="([^"]+)"/g),
  ].map((match) => match[1]!);
  return [...new Set(sources)];
}

const read = (src: string) => readFileSync(join(clientDir, src), 'utf8');

t.test("a page preloads its own language's strings and its page code, and only those", async (t) => {
  const home = await firstLoadScripts('/');
  t.ok(
    home.some((src) => /\/assets\/en-[\w-]+\.js$/.test(src)),
    'English strings preloaded on /',
  );
  t.notOk(
    home.some((src) => /\/assets\/th-[\w-]+\.js$/.test(src)),
    'no Thai strings on /',
  );
  t.ok(
    home.some((src) => /\/assets\/home-[\w-]+\.js$/.test(src)),
    "the home page's chunk",
  );

  const thaiArticle = await firstLoadScripts('/th/asdas/rtp-explained');
  t.ok(
    thaiArticle.some((src) => /\/assets\/th-[\w-]+\.js$/.test(src)),
    'Thai strings on a Thai page',
  );
  t.notOk(
    thaiArticle.some((src) => /\/assets\/en-[\w-]+\.js$/.test(src)),
    'no English strings file on a Thai page',
  );
  t.ok(
    thaiArticle.some((src) => /\/assets\/article-[\w-]+\.js$/.test(src)),
    "the article page's chunk",
  );
});

t.test("the scripts of a first load carry one language's strings", async (t) => {
  const english = (await firstLoadScripts('/')).map(read).join('\n');
  const thai = (await firstLoadScripts('/th')).map(read).join('\n');
  t.ok(english.includes(en.site.footerNote), 'the English page has its strings');
  t.notOk(english.includes(th.site.footerNote), 'and not the Thai ones');
  t.ok(thai.includes(th.site.footerNote), 'the Thai page has its strings');
  t.notOk(thai.includes(en.site.footerNote), 'and not the English ones');
});

t.test('the strings only the server uses (emails, device names, notice pages) are not in a first load', async (t) => {
  const english = (await firstLoadScripts('/')).map(read).join('\n');
  const thai = (await firstLoadScripts('/th')).map(read).join('\n');
  const serverOnly = (strings: typeof en | typeof th) => [
    strings.email.footer,
    strings.overload.message,
    strings.unavailable.message,
  ];
  t.notOk(
    serverOnly(en).some((text) => english.includes(text)),
    'not on an English page',
  );
  t.notOk(
    serverOnly(th).some((text) => thai.includes(text)),
    'not on a Thai page',
  );
  // vite.config.ts leaves these sections out of the browser's strings: the browser never asks for them.
  const clientFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'client'], {
    cwd: projectRoot,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file));
  for (const file of clientFiles) {
    t.notMatch(
      readFileSync(join(projectRoot, file), 'utf8'),
      /['"`](?:email|device|overload|unavailable)\./,
      `${file} uses no server-only string`,
    );
  }
});

t.test('every route names its page module, whose chunk the server preloads', async (t) => {
  const { pageRoutes } = await import('../../contract/routes.ts');
  for (const route of pageRoutes)
    t.ok(existsSync(join(projectRoot, 'client', route.module)), `${route.id}: ${route.module}`);
});

/** The first-load JavaScript budgets (docs/look-and-accessibility.md, Bundle budget): brotli (quality 11), as served. */
// Decision 0030. SWR, i18next and react-router's Link and NavLink (0029) cost the entry chunk about 19,800
// bytes of library code. Issue 29 added about 1,000 bytes to every page (the footer's links, error pages
// that explain and lead on, tag names, mostly as Thai and English strings) and 400 more to the account
// pages (the panel beside login and registration). A content page now loads 115,391 (/) to 116,319
// (/th/bonus) bytes, account pages 119,871 (/login) to 121,427 (/th/registration). Issue 27 asked for
// 110,000 on content pages: not met (0030 says why). Issue 40 added about 970 bytes to every page:
// react-router's ScrollRestoration (about 500, Back returns to where the visitor was), the header's
// way back after login (about 280), leaving a page when signed out elsewhere and its notice (about
// 110), the 404 page in the frame (about 90). These budgets hold today's figures with at most about
// 400 bytes to spare, so any growth shows. Issue 49's majors added 1,714 to every page (/ 116,737 ->
// 118,451): react-router 8.5 +1,469 and i18next 27.2 +145 for the same imports (decision 0046); the
// error screen, the largest part of ours a content page could leave for later, is 547.
const contentPageBudgetBytes = 119_800;
const accountPageBudgetBytes = 124_600;

const contentPages = [
  '/',
  '/th',
  '/bonus',
  '/th/bonus',
  '/terms-apply',
  '/th/terms-apply',
  '/play-responsibility',
  '/th/play-responsibility',
  '/author',
  '/th/author',
  '/asdas',
  '/th/asdas',
  '/asdas/rtp-explained',
  '/th/asdas/rtp-explained',
];
const accountPages = ['/login', '/th/login', '/registration', '/th/registration'];

/**
 * A chunk's file names in it with a hash made of the name alone: each build's content hashes
 * compress differently (up to about 100 bytes on the entry chunk for the same code), the code does not.
 */
const withNamedHashes = (code: string) =>
  code.replace(
    /([\w.-]+?)-[\w-]{8}\.(js|css)/g,
    (_, name: string, ext: string) =>
      `${name}-${createHash('sha256').update(name).digest('base64url').slice(0, 8)}.${ext}`,
  );

async function firstLoadBytes(url: string): Promise<{ scripts: number; bytes: number }> {
  const scripts = await firstLoadScripts(url);
  const brotli = (src: string) =>
    brotliCompressSync(withNamedHashes(readFileSync(join(clientDir, src), 'utf8'))).length;
  const bytes = scripts.reduce((sum, src) => sum + brotli(src), 0);
  return { scripts: scripts.length, bytes };
}

t.test("a content page's first-load JavaScript stays within its budget with brotli", async (t) => {
  for (const url of contentPages) {
    const { scripts, bytes } = await firstLoadBytes(url);
    t.comment(`${url}: ${scripts} scripts, ${bytes} bytes brotli`);
    t.ok(bytes <= contentPageBudgetBytes, `${url}: ${bytes} <= ${contentPageBudgetBytes}`);
  }
});

t.test("an account page's first load stays within its own budget", async (t) => {
  for (const url of accountPages) {
    const { scripts, bytes } = await firstLoadBytes(url);
    t.comment(`${url}: ${scripts} scripts, ${bytes} bytes brotli`);
    t.ok(bytes <= accountPageBudgetBytes, `${url}: ${bytes} <= ${accountPageBudgetBytes}`);
  }
});

/**
 * The fonts a page preloads (lib/page-fonts.ts), woff2 files served as they are. English: Latin
 * (35,820) and the language switch's "ภาษาไทย" (2,644), 38,464 bytes; before issue 29 the whole Thai
 * file (26,924) came instead of the label's, 62,744. Thai: Thai and Latin, 62,744 (Latin preloaded
 * since issue 29). test/browser/fonts.test.ts checks what the browser actually fetches.
 */
const fontBudgetBytes = { en: 39_000, th: 63_000 };

t.test('a page preloads the fonts of its first screen, and an English page not the Thai file', async (t) => {
  for (const [url, locale] of [
    ['/', 'en'],
    ['/asdas/rtp-explained', 'en'],
    ['/login', 'en'],
    ['/th', 'th'],
    ['/th/asdas/rtp-explained', 'th'],
  ] as const) {
    const html = (await app.inject({ url, headers: { 'user-agent': browserUserAgent } })).body;
    const fonts = [...html.matchAll(/<link rel="preload" href="([^"]+)" as="font"/g)].map((match) => match[1]!);
    const files = fonts.map((src) => src.replace(/^\/assets\/|-[\w-]{8}\.woff2$/g, '')).sort();
    const bytes = fonts.reduce((sum, src) => sum + readFileSync(join(clientDir, src)).length, 0);
    t.comment(`${url}: ${files.join(', ')}: ${bytes} bytes`);
    t.same(
      files,
      locale === 'en'
        ? ['noto-sans-latin-wght-normal', 'noto-sans-thai-switch-label']
        : ['noto-sans-latin-wght-normal', 'noto-sans-thai-thai-wght-normal'],
      `${url}: its fonts`,
    );
    t.ok(bytes <= fontBudgetBytes[locale], `${url}: ${bytes} <= ${fontBudgetBytes[locale]}`);
  }
});

/** A logged-in visitor's cookie (the header then shows the Account link and Log out). */
let cookie: string | undefined;
async function loginCookie(): Promise<string> {
  if (cookie) return cookie;
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: 'reader@example.com',
      password: 'a fine passphrase 1',
      displayName: 'Pim',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    },
    headers: { 'user-agent': browserUserAgent },
  });
  await app.jobs.settled();
  cookie = `token=${response.cookies.find((entry) => entry.name === 'token')!.value}`;
  return cookie;
}

/** Every string of a language file, by key (plurals and interpolations included). */
function flatStrings(resources: Record<string, unknown>, prefix = ''): [string, string][] {
  return Object.entries(resources).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : flatStrings(value as Record<string, unknown>, `${prefix}${key}.`),
  );
}

/** What a page's HTML shows as whole texts: element texts and the attributes people read. */
function shownTexts(html: string): Set<string> {
  const body = html.slice(html.indexOf('<body'));
  const decode = (text: string) =>
    text
      .replaceAll('&amp;', '&')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#x27;', "'")
      .replaceAll('&#39;', "'");
  return new Set(
    [...body.matchAll(/>([^<>]+)</g), ...body.matchAll(/ (?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map(
      (match) => decode(match[1]!).trim(),
    ),
  );
}

t.test("a reader's first load carries every string the page shows, and not the account pages' strings", async (t) => {
  for (const [url, strings, user] of [
    ['/', en, false],
    ['/th', th, false],
    ['/th/asdas/rtp-explained', th, false],
    ['/asdas', en, false],
    ['/th/bonus', th, false],
    ['/', en, true],
    ['/th/asdas/rtp-explained', th, true],
  ] as const) {
    const headers = { 'user-agent': browserUserAgent, ...(user ? { cookie: await loginCookie() } : {}) };
    const html = (await app.inject({ url, headers })).body;
    const scripts = (await firstLoadScripts(url)).map(read).join('\n');
    const shown = shownTexts(html);
    const missing = flatStrings(strings).filter(
      ([, text]) => shown.has(text) && !scripts.includes(JSON.stringify(text).slice(1, -1)) && !scripts.includes(text),
    );
    t.same(missing, [], `${url}${user ? ' (logged in)' : ''}: every string shown is in the first load`);
  }
  const english = (await firstLoadScripts('/')).map(read).join('\n');
  const thai = (await firstLoadScripts('/th/asdas/rtp-explained')).map(read).join('\n');
  t.notOk(
    english.includes(en.form.passwordHint) || english.includes(en.play.destinationRefused),
    'no account strings on an English reader page',
  );
  t.notOk(thai.includes(th.form.passwordHint) || thai.includes(th.play.destinationRefused), 'nor on a Thai one');
  t.ok(
    english.includes(en.play.ctaHeading) && english.includes(en.accountPage.link),
    'the Play call to action and the Account link stay',
  );

  const thaiLogin = (await firstLoadScripts('/th/login')).map(read).join('\n');
  t.ok(
    thaiLogin.includes(th.form.passwordHint) && thaiLogin.includes(th.site.footerNote),
    "an account page preloads its language's account strings with the others",
  );
  t.notOk(thaiLogin.includes(en.form.passwordHint), "and only its language's");
});

t.test("code only some visits need is not in the first load of a reader's page", async (t) => {
  const home = (await firstLoadScripts('/')).map(read).join('\n');
  // ofetch's retry status list and @iconify/utils' SVG builder: loaded when first used.
  t.notMatch(home, /retryStatusCodes|408,\s*409,\s*425/, 'no API client (ofetch)');
  t.notMatch(home, /preserveAspectRatio/, 'no icon drawing (@iconify/utils)');
});
