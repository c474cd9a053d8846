// utf8Bytes gives exactly Buffer.from's bytes for every kind of text a page or JSON answer holds.
import t from 'tap';
import { utf8Bytes } from '../../lib/utf8-bytes.ts';

const long = (piece: string) => piece.repeat(Math.ceil(5000 / piece.length));

const cases: Record<string, string> = {
  empty: '',
  'short ASCII': '<p>Hello</p>',
  'long ASCII': long('<a href="/bonus">Bonus</a> '),
  'long Latin-1': long('Café crème – '),
  'long Thai': long('อ่านหน้านี้เป็นภาษาไทย '),
  'English page with a Thai language switch': `${long('<p>Read the guide →</p>')}<span>ภาษาไทย</span>`,
  'emoji (surrogate pairs)': long('x😀y '),
  'U+0000 and U+FFFF': long('\u0000\uffff'),
  'a lone high surrogate at the end': `${long('abc')}\ud83d`,
  'a lone low surrogate inside': `${long('abc')}\udc00${long('def')}`,
  'a lone surrogate in a short string': 'a\ud800b',
};

for (const [name, text] of Object.entries(cases)) {
  t.test(name, async (t) => {
    const bytes = utf8Bytes(text);
    t.ok(Buffer.isBuffer(bytes));
    t.ok(bytes.equals(Buffer.from(text)), `${text.length} characters: the bytes Buffer.from gives`);
  });
}
