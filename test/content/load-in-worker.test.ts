import path from 'node:path';
import t from 'tap';
import { loadContentInWorker } from '../../lib/content/load-in-worker.ts';
import { loadContent } from '../../lib/content/loader.ts';
import { fixture, realContent } from '../helpers/content.ts';

// Production loads content on a thread of its own (plugins/app/content.ts), so the Markdown pipeline
// does not stay in the server's heap. What the thread hands back must be what loadContent makes.

t.test('the thread answers what loadContent makes: the real content', async (t) => {
  const [threaded, direct] = await Promise.all([loadContentInWorker(realContent), loadContent(realContent)]);
  t.ok(threaded.pages.length > 20, `${threaded.pages.length} pages`);
  t.same(threaded.issues, [], 'no problems in the sample content');
  t.strictSame(threaded, direct, 'pages, authors, HTML, tables of contents, version: the same');
});

t.test('the thread answers what loadContent makes: content with problems', async (t) => {
  const invalid = fixture('content-invalid');
  const [threaded, direct] = await Promise.all([loadContentInWorker(invalid), loadContent(invalid)]);
  t.ok(threaded.issues.length > 10, `${threaded.issues.length} problems, each with its file and field`);
  t.strictSame(threaded, direct);
});

t.test('a folder that cannot be read is a problem in the answer, not a failed thread', async (t) => {
  const missing = path.join(fixture('content-basic'), 'no-such-folder');
  const threaded = await loadContentInWorker(missing);
  t.same(threaded.pages, []);
  t.match(threaded.issues, [{ field: 'file', message: /cannot read the content folder/ }]);
  t.strictSame(threaded, await loadContent(missing));
});
