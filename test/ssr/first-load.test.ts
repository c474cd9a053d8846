import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

t.test('a page preloads its own language\'s strings and its page code, and only those', async (t) => {
  const home = await firstLoadScripts('/');
  t.ok(home.some((src) => /\/assets\/en-[\w-]+\.js$/.test(src)), 'English strings preloaded on /');
  t.notOk(home.some((src) => /\/assets\/th-[\w-]+\.js$/.test(src)), 'no Thai strings on /');
  t.ok(home.some((src) => /\/assets\/home-[\w-]+\.js$/.test(src)), 'the home page\'s chunk');

  const thaiArticle = await firstLoadScripts('/th/asdas/rtp-explained');
  t.ok(thaiArticle.some((src) => /\/assets\/th-[\w-]+\.js$/.test(src)), 'Thai strings on a Thai page');
  t.notOk(thaiArticle.some((src) => /\/assets\/en-[\w-]+\.js$/.test(src)), 'no English strings file on a Thai page');
  t.ok(thaiArticle.some((src) => /\/assets\/article-[\w-]+\.js$/.test(src)), 'the article page\'s chunk');
});

t.test('the scripts of a first load carry one language\'s strings', async (t) => {
  const english = (await firstLoadScripts('/')).map(read).join('\n');
  const thai = (await firstLoadScripts('/th')).map(read).join('\n');
  t.ok(english.includes(en.site.footerNote), 'the English page has its strings');
  t.notOk(english.includes(th.site.footerNote), 'and not the Thai ones');
  t.ok(thai.includes(th.site.footerNote), 'the Thai page has its strings');
  t.notOk(thai.includes(en.site.footerNote), 'and not the English ones');
});

t.test('every route names the module its page imports (the server preloads that chunk)', async (t) => {
  const { pageRoutes } = await import('../../client/routes.ts');
  for (const route of pageRoutes) {
    const source = String(route.page);
    t.ok(source.includes(`"./${route.module}"`) || source.includes(`'./${route.module}'`), `${route.id}: ${route.module}`);
  }
});
