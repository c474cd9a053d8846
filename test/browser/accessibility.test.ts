import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { startBrowserTest } from '../helpers/browser.ts';

// axe-core in Chromium on every page type, both languages, desktop and a 390x844 phone: no
// violations of any rule axe runs by default (WCAG 2.x A/AA and best practices).

const { app, base, browser } = await startBrowserTest(t);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  payload: {
    email: `axe.${process.pid}@example.com`,
    password: 'correct horse battery staple',
    displayName: 'Axe Player',
    locale: 'en',
    acceptTerms: true,
    confirmAge: true,
  },
});
const token = /token=([^;]+)/.exec(String(registered.headers['set-cookie']))![1]!;
await app.inject({
  method: 'POST',
  url: '/api/play',
  headers: { authorization: `Bearer ${token}` },
  payload: { locale: 'en' },
});

interface Check {
  name: string;
  path: string;
  user?: boolean;
  /** What must be on the page before it is checked. */
  ready?: string;
  prepare?: (page: Page) => Promise<void>;
}

const checks: Check[] = [
  { name: 'home', path: '/' },
  { name: 'list', path: '/asdas' },
  { name: 'article', path: '/asdas/how-to-read-bonus-terms' },
  { name: 'author', path: '/author/daniel-hart' },
  { name: 'table of content', path: '/table-of-content' },
  { name: 'bonus', path: '/bonus' },
  { name: 'terms', path: '/terms-apply' },
  { name: 'responsible play', path: '/play-responsibility' },
  { name: 'login', path: '/login' },
  {
    name: 'login with errors',
    path: '/login',
    prepare: async (page) => {
      await page.click('.account-form button[type="submit"]');
      await page.waitForSelector('[data-testid="error-summary"]');
    },
  },
  { name: 'registration', path: '/registration' },
  { name: 'account', path: '/account', user: true },
  { name: 'play', path: '/play', user: true, ready: '[data-testid="play-again"]' },
  {
    name: 'play session',
    path: '/play',
    user: true,
    prepare: async (page) => {
      await page.click('[data-testid="play-again"]');
      await page.waitForSelector('[data-testid="play-session"]');
    },
  },
  { name: '404', path: '/no-such-page' },
  { name: 'refused slug (the same 404)', path: '/asdas/Not_A_Slug' },
  {
    name: 'menu open',
    path: '/bonus',
    prepare: async (page) => {
      const toggle = page.locator('[data-testid="menu-toggle"]');
      if (await toggle.isVisible()) await toggle.click();
    },
  },
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } };
let pagesChecked = 0;

for (const [size, viewport] of Object.entries(viewports)) {
  for (const locale of ['en', 'th'] as const) {
    t.test(`${size}, ${locale}: no axe violations on any page type`, async (t) => {
      // The CSP allows only the site's own scripts; axe is injected by the test, not the site.
      const context = await browser.newContext({ userAgent: browserUserAgent, viewport, bypassCSP: true });
      const page = await context.newPage();
      for (const check of checks) {
        if (check.user) await context.addCookies([{ name: 'token', value: token, url: base }]);
        else await context.clearCookies();
        const path = locale === 'en' ? check.path : check.path === '/' ? '/th' : `/th${check.path}`;
        await page.goto(`${base}${path}`);
        await page.waitForSelector('html[data-hydrated="true"]');
        if (check.ready) await page.waitForSelector(check.ready);
        await check.prepare?.(page);
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const result = await (
            window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }
          ).axe.run(document);
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.slice(0, 3).map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
          }));
        });
        pagesChecked += 1;
        t.same(violations, [], `${check.name} (${path})`);
      }
      await context.close();
    });
  }
}

t.teardown(() => {
  console.log(`# axe: ${pagesChecked} page views checked`);
});
