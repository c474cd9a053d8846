import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { collectConsole, startBrowserTest, visitors } from '../helpers/browser.ts';

// Every "not found" a visitor can meet is one page inside the site's frame: an unknown path, an
// unknown article, a slug the article route refuses (the spec's fatal 404), in both languages,
// with and without JavaScript, opened or reached by client navigation. It says what happened in
// the visitor's language and leads on; it shows the spec's message and Clear errors.

const { base, browser } = await startBrowserTest(t);
const { newContext, visit } = visitors(browser, base, '');

const words = {
  en: { title: 'Page not found (404) · Asdas', heading: "We couldn't find that page", home: '/' },
  th: { title: 'ไม่พบหน้านี้ (404) · Asdas', heading: 'ไม่พบหน้าที่คุณต้องการ', home: '/th' },
} as const;

/** What the visitor sees of a not-found page, and what the head says about it. */
async function notFoundPage(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    return {
      title: document.title,
      heading: main?.querySelector('h1')?.textContent ?? '',
      explanation: main?.querySelector('.error-explanation')?.textContent ?? '',
      text: document.body.innerText,
      description: document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '',
      framed: {
        header: document.querySelector('header.site-header') !== null,
        navigation: document.querySelectorAll('nav.main-nav a').length,
        languageSwitch: document.querySelector('[data-testid="language-switch"]') !== null,
        footer: document.querySelector('footer.site-footer') !== null,
      },
      errorScreen: document.querySelector('[data-testid="error-screen"]') !== null,
      homeLink: document.querySelector('[data-testid="error-home"]')?.getAttribute('href') ?? null,
      sections: document.querySelectorAll('[data-testid="error-sections"] a').length,
    };
  });
}

async function checkNotFound(t: Test, page: Page, locale: 'en' | 'th', address: string) {
  const seen = await notFoundPage(page);
  t.equal(seen.title, words[locale].title, `${address}: translated title`);
  t.equal(seen.heading, words[locale].heading, `${address}: translated heading`);
  t.ok(seen.explanation.length > 20, `${address}: an explanation`);
  t.same(
    seen.framed,
    { header: true, navigation: 6, languageSwitch: true, footer: true },
    `${address}: in the site's frame`,
  );
  t.notOk(seen.errorScreen, `${address}: not the bare error screen`);
  t.equal(seen.homeLink, words[locale].home, `${address}: a link home`);
  t.ok(seen.sections >= 6, `${address}: links to the sections`);
  const path = new URL(address, base).pathname;
  // The spec's error screen shows the error's message ('Page not found: {path}') and Clear errors.
  // (Its {path} is the full path, query included, as Nuxt's `to.fullPath`.)
  t.match(seen.text, /Page (not found|Not Found): /, `${address}: the spec's message`);
  t.match(seen.text, locale === 'en' ? /Clear errors/ : /ล้างข้อผิดพลาด/, `${address}: Clear errors`);
  for (const shown of [seen.text, seen.description]) t.notMatch(shown, /Details|รายละเอียด/, `${address}: no label`);
  t.notOk(seen.description.includes(path), `${address}: the description names no path`);
  t.notOk(seen.description.includes('secret-query'), `${address}: nor the query`);
  t.equal(seen.description, seen.explanation, `${address}: the description is the explanation`);
}

const addresses = [
  ['en', '/nope?secret-query=1'],
  ['en', '/asdas/not-a-known-article?secret-query=1'],
  ['en', '/asdas/Not_A_Slug?secret-query=1'],
  ['th', '/th/nope?secret-query=1'],
  ['th', '/th/asdas/Not_A_Slug?secret-query=1'],
] as const;

for (const javaScript of [true, false]) {
  t.test(`${javaScript ? 'with' : 'without'} JavaScript: every not-found is the framed 404`, async (t) => {
    const context = await newContext({ width: 1366, height: 900 }, { javaScript });
    const page = await context.newPage();
    const consoleLog = collectConsole(page);
    for (const [locale, address] of addresses) {
      const response = await visit(page, address, javaScript);
      t.equal(response?.status(), 404, `${address}: status 404`);
      await checkNotFound(t, page, locale, address);
    }
    if (javaScript) {
      const unexpected = consoleLog.problems().filter((problem) => !/status of 404/.test(problem));
      t.same(unexpected, [], 'hydrates without warnings (only the 404 status is reported)');
    }
    await context.close();
  });
}

t.test('client navigation to a missing article shows the same page, in both languages', async (t) => {
  const context = await newContext({ width: 390, height: 844 });
  const page = await context.newPage();
  for (const [locale, target] of [
    ['en', '/asdas/not-a-known-article'],
    ['en', '/asdas/Not_A_Slug'],
    ['th', '/th/asdas/Not_A_Slug'],
  ] as const) {
    await visit(page, locale === 'en' ? '/bonus' : '/th/bonus');
    const documents: string[] = [];
    const onRequest = (request: { resourceType(): string; url(): string }) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    };
    page.on('request', onRequest);
    // A link in the page's text: the router follows it (client/components/prose.tsx).
    await page.evaluate((to) => {
      const link = Object.assign(document.createElement('a'), { href: to, textContent: 'missing' });
      link.dataset.testLink = '';
      document.querySelector('.prose')!.append(link);
    }, target);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.click('[data-test-link]');
    await page.waitForURL(`${base}${target}`);
    await page.waitForFunction((title) => document.title === title, words[locale].title);
    // The head's other tags follow once their code has loaded (client/components/document-head.tsx).
    await page.waitForFunction(
      () =>
        document.querySelector('meta[name="description"]')?.getAttribute('content') ===
        document.querySelector('main .error-explanation')?.textContent,
    );
    await checkNotFound(t, page, locale, target);
    t.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 1, `${target}: no reload`);
    t.same(documents, [], `${target}: a client navigation`);
    page.off('request', onRequest);
  }
  await context.close();
});
