import t from 'tap';
import en from '../../locales/en.json' with { type: 'json' };
import th from '../../locales/th.json' with { type: 'json' };
import type { ArticleListData } from '../../contract/content.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// No promise the product does not keep (issue 40): the tools that exist are taking a break (the
// account page), the session reminder (the Play page) and the list of play sessions. No page and
// no string may offer deposit limits, time limits or a "limits" menu, in either language.

const { app, close } = await startTestApp();
t.teardown(close);

const promises = {
  en: /deposit limit|limits and breaks|limits tools|manage your limits|set limits|session time limit|see your tools/i,
  th: /วงเงินฝาก|จำกัดยอดฝาก|ขีดจำกัดและการพักเล่น|จำกัดเวลาเล่นต่อรอบ|จัดการขีดจำกัด|ตั้งขีดจำกัดได้|ตั้งขีดจำกัดก่อน|เครื่องมือตั้งขีดจำกัด|ดูเครื่องมือของคุณ/,
};

/** Every string of a locale file, with its key. */
function strings(value: unknown, key = ''): [string, string][] {
  if (typeof value === 'string') return [[key, value]];
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([name, child]) => strings(child, key ? `${key}.${name}` : name));
  return [];
}

t.test('no interface string offers a tool the product lacks', async (t) => {
  for (const [locale, messages] of [
    ['en', en],
    ['th', th],
  ] as const) {
    const all = strings(messages);
    t.ok(all.length > 100, `${locale}: the strings are read`);
    const offending = all.filter(([, text]) => promises.en.test(text) || promises.th.test(text));
    t.same(offending, [], `${locale}: none mentions deposit limits, time limits or a limits menu`);
  }
});

t.test('no page offers a tool the product lacks, in either language', async (t) => {
  const text = (html: string) =>
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
  let checked = 0;
  for (const prefix of ['', '/th']) {
    const list = (await app.inject({ url: `${prefix}/asdas/_payload.json` })).json<{ data: ArticleListData }>().data;
    const paths = [
      prefix || '/',
      `${prefix}/login`,
      `${prefix}/registration`,
      `${prefix}/bonus`,
      `${prefix}/terms-apply`,
      `${prefix}/play-responsibility`,
      `${prefix}/table-of-content`,
      ...list.articles.map((article) => article.path),
    ];
    for (const path of paths) {
      const response = await app.inject({ url: path, headers: { 'user-agent': browserUserAgent } });
      t.equal(response.statusCode, 200, path);
      const shown = text(response.body);
      t.notMatch(shown, promises.en, `${path}: no English promise of a missing tool`);
      t.notMatch(shown, promises.th, `${path}: no Thai promise of a missing tool`);
      checked += 1;
    }
  }
  t.ok(checked >= 30, `${checked} pages`);
});

t.test('the responsible-play page names the tools that exist, where they are', async (t) => {
  for (const [path, tools] of [
    ['/play-responsibility', ['Take a break', 'Session reminder', 'Your play sessions']],
    ['/th/play-responsibility', ['การพักเล่น', 'การแจ้งเตือนระยะเวลาเล่น', 'ประวัติการเล่นของคุณ']],
  ] as const) {
    const body = (await app.inject({ url: path, headers: { 'user-agent': browserUserAgent } })).body;
    for (const tool of tools) t.ok(body.includes(tool), `${path}: ${tool}`);
  }
});
