// `npm run screenshots`: full-page PNGs of the site as visitors see it, desktop to small phone, English
// and Thai, into screenshots/ (git-ignored). Runs the production build (built first when missing,
// `-- --build` forces it) in this process with an empty embedded database in a temporary folder.
//   npm run screenshots                      every page, every size, both languages
//   npm run screenshots -- --only=home,login  some pages (names below)
//   npm run screenshots -- --sizes=narrow     some sizes: desktop 1366x900, tablet 768x1024,
//                                            mobile 390x844, narrow 320x568
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/helpers/browser.ts';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, 'screenshots');
const args = process.argv.slice(2);
const usage = `npm run screenshots -- [--only=<pages>] [--sizes=<sizes>] [--build]

  Full-page PNGs of every page, English and Thai, into screenshots/.
  --only=home,login    some pages (names: see the list in scripts/screenshots.ts)
  --sizes=narrow       some sizes: desktop 1366x900, tablet 768x1024, mobile 390x844, narrow 320x568
  --build              build first (otherwise only when dist/ is missing)`;
const unknown = args.filter((arg) => !/^--(only|sizes)=|^--build$/.test(arg));
if (unknown.length > 0) {
  const help = unknown.every((arg) => arg === '--help' || arg === '-h');
  (help ? console.log : console.error)(help ? usage : `unknown option ${unknown.join(' ')}\n\n${usage}`);
  process.exit(help ? 0 : 2);
}
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

if (args.includes('--build') || !existsSync(resolve(root, 'dist/build.json'))) {
  execFileSync(process.execPath, [resolve(root, 'scripts/build.mjs')], { stdio: 'inherit', cwd: root });
}

// A person's browser: headless Chromium calls itself HeadlessChrome, which the site treats as a bot.
const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
// The sizes the site is checked at (docs/look-and-accessibility.md): `-- --sizes=desktop,mobile` takes some.
const allViewports = {
  desktop: { width: 1366, height: 900 },
  tablet: { width: 768, height: 1024 },
  mobile: { width: 390, height: 844 },
  narrow: { width: 320, height: 568 },
} as const;
const sizes = args
  .find((arg) => arg.startsWith('--sizes='))
  ?.slice('--sizes='.length)
  .split(',');
const viewports = Object.fromEntries(
  Object.entries(allViewports).filter(([size]) => !sizes || sizes.includes(size)),
) as Partial<typeof allViewports>;
const locales = ['en', 'th'] as const;

interface Shot {
  name: string;
  path: string;
  /** Logged in as the screenshot player. */
  user?: boolean;
  /** Something to do before the picture (open the menu, focus a control ...). */
  prepare?: (page: Page) => Promise<void>;
  /** The page's own code is not loaded (no JavaScript). */
  noScript?: boolean;
  /** What must be on the page before the picture. */
  ready?: string;
}

const shots: Shot[] = [
  { name: 'home', path: '/' },
  { name: 'list', path: '/asdas' },
  { name: 'article', path: '/asdas/how-to-read-bonus-terms' },
  { name: 'author', path: '/author/daniel-hart' },
  { name: 'toc', path: '/table-of-content' },
  { name: 'bonus', path: '/bonus' },
  { name: 'login', path: '/login' },
  {
    name: 'login-errors',
    path: '/login',
    prepare: async (page) => {
      await page.click('form.account-form button[type="submit"]');
      await page.waitForSelector('[data-testid="error-summary"]');
    },
  },
  { name: 'registration', path: '/registration' },
  { name: 'account', path: '/account', user: true },
  { name: 'forgot-password', path: '/forgot-password' },
  { name: 'forgot-password-sent', path: '/forgot-password?sent=1' },
  { name: 'link-expired', path: '/reset-password?problem=expired' },
  { name: 'play-start', path: '/play', user: true, ready: '[data-testid="play-again"]' },
  {
    // A visit only offers Play: pressing it starts the session the picture shows.
    name: 'play',
    path: '/play',
    user: true,
    prepare: async (page) => {
      await page.click('[data-testid="play-again"]');
      await page.waitForSelector('[data-testid="play-session"]');
    },
  },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'fatal-error', path: '/asdas/Not_A_Slug' },
  { name: 'refused-address', path: '/asdas/%E0%A4' },
  { name: 'bad-page-number', path: '/asdas?page=abc' },
  {
    name: 'menu-open',
    path: '/',
    prepare: async (page) => {
      const toggle = page.locator('[data-testid="menu-toggle"]');
      if (await toggle.isVisible()) await toggle.click();
    },
  },
  {
    name: 'menu-open-nojs',
    path: '/bonus',
    noScript: true,
    prepare: async (page) => {
      const toggle = page.locator('[data-testid="menu-toggle"]');
      if (await toggle.isVisible()) await toggle.click();
    },
  },
];

const dataDir = mkdtempSync(join(tmpdir(), 'asdas-screenshots-'));
process.env.NODE_ENV = 'production';
const { loadConfig } = await import('../lib/config.ts');
const { buildApp } = await import('../app.ts');
const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: '0' });
const app = await buildApp({ config });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await launchBrowser();

try {
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email: 'screenshots@example.com',
      password: 'correct horse battery staple',
      displayName: 'Somchai',
      locale: 'en',
      acceptTerms: true,
      confirmAge: true,
    },
  });
  const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))?.[1];
  if (!token) throw new Error(`could not register the screenshot player: ${registered.statusCode} ${registered.body}`);
  // Two play sessions from different devices for the account page.
  for (const agent of [
    userAgent,
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ]) {
    await app.inject({
      method: 'POST',
      url: '/api/play',
      headers: { authorization: `Bearer ${token}`, 'user-agent': agent },
      payload: { locale: 'en' },
    });
  }

  mkdirSync(outDir, { recursive: true });
  let count = 0;
  for (const shot of shots.filter((s) => !only || only.includes(s.name))) {
    for (const [size, viewport] of Object.entries(viewports)) {
      for (const locale of locales) {
        const context = await browser.newContext({
          userAgent,
          viewport,
          deviceScaleFactor: 1,
          javaScriptEnabled: !shot.noScript,
          timezoneId: 'Asia/Bangkok',
          locale: locale === 'th' ? 'th-TH' : 'en-GB',
        });
        if (shot.user) await context.addCookies([{ name: 'token', value: token, url: base }]);
        const page = await context.newPage();
        const path = locale === 'en' ? shot.path : shot.path === '/' ? '/th' : `/th${shot.path}`;
        await page.goto(`${base}${path}`);
        if (!shot.noScript)
          await page.waitForSelector('html[data-hydrated="true"]', { timeout: 15_000 }).catch(() => undefined);
        if (shot.ready) await page.waitForSelector(shot.ready);
        await page.evaluate(() => document.fonts.ready);
        await shot.prepare?.(page);
        await page.evaluate(() => document.fonts.ready);
        const file = join(outDir, `${shot.name}-${size}-${locale}.png`);
        await page.screenshot({ path: file, fullPage: true });
        // The phone's first screen on its own: what a visitor sees before scrolling.
        if (size === 'mobile' || size === 'narrow')
          await page.screenshot({ path: file.replace(/\.png$/, '-first-screen.png') });
        count += 1;
        await context.close();
      }
    }
  }
  console.log(`${count} screenshots in ${outDir}`);
} finally {
  await browser.close();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
