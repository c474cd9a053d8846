import { readFile } from 'node:fs/promises';
import t from 'tap';
import { renderMarkdown } from '../../lib/content/markdown.ts';
import { countWords, readingMinutes } from '../../lib/content/reading-time.ts';
import { fixture } from '../helpers/content.ts';

const idsIn = (html: string) => [...html.matchAll(/<h[1-6][^>]*\sid="([^"]*)"/g)].map((match) => match[1]!);

t.test('raw HTML and dangerous links never reach the output', async (t) => {
  const source = await readFile(fixture('content-basic/en/asdas/hostile-markup.md'), 'utf8');
  const { html } = renderMarkdown(source.replace(/^---[\s\S]*?---\n/, ''), 'en');
  t.notMatch(html, /<script/i, 'no script element');
  t.notMatch(html, /onerror|onclick/i, 'no event handler attributes');
  t.notMatch(html, /javascript:/i, 'no javascript: URL');
  t.notMatch(html, /vbscript:/i, 'no vbscript: URL');
  t.notMatch(html, /data:/i, 'no data: URL');
  t.notMatch(html, /<iframe|<img src="x"|style=/i, 'no iframe, raw img or style');
  t.match(html, '<a href="/bonus">relative</a>', 'root-relative links stay as written');
  t.match(html, '<a href="https://example.com/page">external</a>');
  t.match(html, '<a href="mailto:help@example.com">mail</a>');
  t.match(html, '<a>script link</a>', 'the link text stays, without its href');
});

t.test('inline script tags and handlers in any position are dropped', async (t) => {
  const { html } = renderMarkdown(
    'Text <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y]( javascript:alert(1))\n\n<script>\nalert(1)\n</script>\n',
    'en',
  );
  t.notMatch(html, /<script|onerror|javascript:/i);
});

t.test('table of contents: h2/h3 only, ids match the headings and are unique', async (t) => {
  const { html, toc } = renderMarkdown(
    '## One\n\ntext\n\n### Two\n\n#### Deep\n\n## One\n\n## Footnote label\n\nA note[^1].\n\n[^1]: The note.\n',
    'en',
  );
  t.same(
    toc.map(({ id, level }) => [id, level]),
    [
      ['one', 2],
      ['two', 3],
      ['one-1', 2],
      ['section-5', 2],
    ],
    'a heading colliding with the footnotes heading falls back to section-N',
  );
  const ids = idsIn(html);
  for (const entry of toc) t.ok(ids.includes(entry.id), `#${entry.id} is in the HTML`);
  t.equal(new Set(ids).size, ids.length, 'ids are unique');
  t.match(html, 'aria-describedby="footnote-label"', 'footnote references keep pointing at their heading');
  t.match(html, '<h2 class="sr-only" id="footnote-label">', 'the footnotes heading keeps its id');
  t.notOk(
    toc.some((entry) => entry.text === 'Footnotes'),
    'the footnotes heading is not in the ToC',
  );
  t.match(html, /<h4 id="deep">/, 'deeper headings get ids too');
});

t.test('Thai headings get non-empty, readable, unique ids', async (t) => {
  const source = await readFile(fixture('content-basic/th/asdas/third-post.md'), 'utf8');
  const { html, toc } = renderMarkdown(source.replace(/^---[\s\S]*?---\n/, ''), 'th');
  t.same(
    toc.map((entry) => entry.id),
    ['สัญญาณเตือน', 'ขีดจำกัดการฝากเงิน-deposit-limits', 'สัญญาณเตือน-1', 'section-4', 'การพักเล่นชั่วคราว'],
  );
  t.ok(toc.every((entry) => entry.id.length > 0));
  t.equal(toc[1]!.id.normalize('NFC'), toc[1]!.id, 'ids are NFC');
  t.ok(
    toc[0]!.id.includes('ณ') && toc[4]!.id.includes('ั') && toc[4]!.id.includes('่'),
    'Thai vowels and tone marks survive',
  );
  const ids = idsIn(html);
  t.same(
    ids,
    toc.map((entry) => entry.id),
    'ToC ids are the heading ids in the HTML',
  );
  t.equal(new Set(ids).size, ids.length);
});

t.test('GFM works: tables, strikethrough, task lists, autolinks', async (t) => {
  const { html } = renderMarkdown(
    '| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n\nhttps://example.com\n',
    'en',
  );
  t.match(html, '<table tabindex="0">', 'a table, reachable by keyboard when it scrolls');
  t.match(html, '<del>old</del>');
  t.match(html, 'type="checkbox"');
  t.match(html, '<a href="https://example.com">https://example.com</a>');
});

t.test('reading time', async (t) => {
  t.equal(countWords('One two three, four.', 'en'), 4);
  t.equal(
    countWords('ณิชาเป็นบรรณาธิการด้านการเล่นอย่างรับผิดชอบ', 'th') > 5,
    true,
    'Thai is segmented into words, not counted by spaces',
  );
  t.equal(readingMinutes('short', 'en'), 1, 'at least one minute');
  t.equal(readingMinutes(Array(1000).fill('word').join(' '), 'en'), 5, '1000 words at 200 wpm');
  t.equal(renderMarkdown(Array(450).fill('word').join(' '), 'en').readingMinutes, 2);
});

t.test('a level-1 heading is counted (the loader rejects it)', async (t) => {
  t.equal(renderMarkdown('# Title\n\n## Section\n', 'en').h1Count, 1);
  t.equal(renderMarkdown('## Section\n', 'en').h1Count, 0);
});
