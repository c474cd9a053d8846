import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildApp } from '../../app.ts';
import { META_CACHE_CONTROL } from '../../routes/builds.ts';
import { testConfig } from '../helpers/app.ts';

t.test('the builds plugin: latest.json read on every request, meta files immutable, JSON 404s', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'asdas-builds-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const app = await buildApp({
    config: testConfig(),
    without: ['accounts', 'content', 'icons', 'pages'],
    builds: { dir },
  });
  app.get('/*', async () => 'PAGE RENDERER');
  await app.ready();
  t.teardown(() => app.close());

  const missing = await app.inject('/builds/latest.json');
  t.equal(missing.statusCode, 404, 'no build yet');
  t.same(missing.json(), { statusCode: 404, code: 'NOT_FOUND', message: 'Not found: /builds/latest.json' });

  mkdirSync(join(dir, 'meta'));
  writeFileSync(join(dir, 'latest.json'), JSON.stringify({ id: 'build-a', timestamp: 1 }));
  writeFileSync(join(dir, 'meta', 'build-a.json'), JSON.stringify({ id: 'build-a', timestamp: 1, prerendered: [] }));
  const first = await app.inject('/builds/latest.json?1700000000000');
  t.equal(first.statusCode, 200);
  t.equal(first.headers['cache-control'], 'no-cache', 'revalidated every time');
  t.match(first.headers['content-type'], /^application\/json/);
  t.same(first.json(), { id: 'build-a', timestamp: 1 });

  writeFileSync(join(dir, 'latest.json'), JSON.stringify({ id: 'build-b', timestamp: 2 }));
  t.same(
    (await app.inject('/builds/latest.json')).json(),
    { id: 'build-b', timestamp: 2 },
    'a second build is seen without a restart',
  );

  const meta = await app.inject('/builds/meta/build-a.json');
  t.equal(meta.statusCode, 200);
  t.equal(meta.headers['cache-control'], META_CACHE_CONTROL);
  t.equal(META_CACHE_CONTROL, 'public, max-age=31536000, immutable');
  t.same(meta.json(), { id: 'build-a', timestamp: 1, prerendered: [] });
  t.equal((await app.inject({ method: 'HEAD', url: '/builds/meta/build-a.json' })).statusCode, 200, 'HEAD works');

  for (const url of [
    '/builds/meta/build-b.json',
    '/builds/meta/build-a',
    '/builds/meta/build-a.txt',
    '/builds/meta/..%2Flatest.json',
    '/builds/meta/%2e%2e%2flatest.json',
    '/builds/meta/.json',
    '/builds/meta/nested/build-a.json',
    '/builds/meta/',
    '/builds/other.json',
    '/builds/',
  ]) {
    // Another spelling of a path (lower-case escapes, a trailing slash) is first redirected to its
    // normal form (plugins/app/canonical-path.ts), which stays under /builds/.
    let response = await app.inject(url);
    if (response.statusCode === 301) {
      t.match(response.headers.location, /^\/builds(\/|$)/, `${url}: redirected within /builds`);
      response = await app.inject(String(response.headers.location));
    }
    t.equal(response.statusCode, 404, `${url}: 404`);
    t.match(response.headers['content-type'], /^application\/json/, `${url}: JSON`);
    t.match(
      response.json(),
      { statusCode: 404, code: 'NOT_FOUND', message: /^Not found: / },
      `${url}: never the page renderer`,
    );
  }
});
