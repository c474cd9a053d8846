import t from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import { localePath, type Locale } from '../../contract/locales.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

const { app, close } = await startTestApp();
t.teardown(close);

const labels: Record<Locale, Record<string, string>> = { en: en.nav, th: th.nav };
const pages = [
  '/',
  '/asdas',
  '/asdas/rtp-explained',
  '/login',
  '/registration',
  '/bonus',
  '/terms-apply',
  '/play-responsibility',
  '/author',
  '/author/nicha-srisuk',
  '/table-of-content',
];

const decode = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

for (const locale of ['en', 'th'] as const) {
  for (const page of pages) {
    const url = localePath(locale, page);
    t.test(`${url} renders on the server in ${locale}`, async (t) => {
      const response = await app.inject({ url, headers: { 'user-agent': browserUserAgent, cookie: `lang=${locale}` } });
      t.equal(response.statusCode, 200);
      t.match(response.headers['content-type'], /text\/html/);
      t.equal(response.headers['cache-control'], 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
      const html = decode(response.body);
      t.match(html, new RegExp(`<html lang="${locale}"`), 'html lang is the page language');
      for (const [key, label] of Object.entries(labels[locale])) {
        t.ok(
          html.includes(`data-nav="${key}"`) && html.includes(`>${label}<`),
          `navigation item ${key} reads "${label}"`,
        );
      }
      const other: Locale = locale === 'en' ? 'th' : 'en';
      const switchHref = /data-testid="language-switch" href="([^"]+)"/.exec(html)?.[1];
      t.equal(switchHref, localePath(other, page), 'the language switch keeps the path');
      t.match(html, /<main id="main"[^>]*>[\s\S]*<h1>/, 'the page content is in the server HTML');
      t.match(html, /<title>[^<]+<\/title>/);
      t.ok(pageStateOf(html).router, 'hydration data is sent');
    });
  }
}

t.test('the article is rendered from its data source into the HTML', async (t) => {
  const response = await app.inject({ url: '/th/asdas/rtp-explained' });
  t.match(response.body, /<h1>RTP คืออะไร<\/h1>/);
  t.match(response.body, /<title>RTP คืออะไร · Asdas<\/title>/);
});

t.test('the language switch keeps the query string', async (t) => {
  const response = await app.inject({ url: '/asdas?page=2' });
  t.match(response.body, /data-testid="language-switch" href="\/th\/asdas\?page=2"/);
});

t.test('a trailing slash is redirected to the page (one address per page)', async (t) => {
  const response = await app.inject({ url: '/bonus/?a=1' });
  t.equal(response.statusCode, 301);
  t.equal(response.headers.location, '/bonus?a=1');
  t.equal((await app.inject({ url: '/bonus' })).statusCode, 200);
});
