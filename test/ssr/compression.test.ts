import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import { projectRoot } from '../../lib/build-info.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// Compression as clients negotiate it: pages (cached or not), JSON, the build's pre-compressed assets.
const { app, close } = await startTestApp({ PUBLIC_URL: 'http://localhost:3000' });
t.teardown(close);

const get = (
  url: string,
  encoding: string | undefined,
  extra: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
) =>
  app.inject({
    method,
    url,
    headers: {
      'user-agent': browserUserAgent,
      ...(encoding === undefined ? {} : { 'accept-encoding': encoding }),
      ...extra,
    },
  });

function decoded(response: { rawPayload: Buffer; headers: Record<string, unknown> }): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString();
  return response.rawPayload.toString();
}

const varies = (response: { headers: Record<string, unknown> }) =>
  /accept-encoding/i.test(String(response.headers.vary));

t.test('pages: brotli, gzip or identity by Accept-Encoding, q-values honoured, the same page each way', async (t) => {
  const plain = await get('/asdas', undefined);
  t.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding: as is');
  t.ok(varies(plain), 'and says it varies');
  for (const round of ['miss or hit', 'hit']) {
    for (const [accept, expected] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.1, gzip;q=0.9', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      ['*', 'gzip'],
    ] as const) {
      const response = await get('/asdas', accept);
      t.equal(response.headers['content-encoding'], expected, `${round}: ${accept} → ${expected ?? 'identity'}`);
      t.ok(varies(response), 'Vary: Accept-Encoding');
      t.equal(Number(response.headers['content-length']), response.rawPayload.length, 'Content-Length of what is sent');
      t.equal(decoded(response), plain.body, 'the same page');
    }
  }
  const br = await get('/asdas', 'br');
  t.ok(
    br.rawPayload.length * 3 < plain.rawPayload.length,
    `brotli: ${br.rawPayload.length} of ${plain.rawPayload.length} bytes`,
  );
  const etags = new Set([plain, br, await get('/asdas', 'gzip')].map((response) => response.headers.etag));
  t.equal(etags.size, 3, 'an ETag per encoding');
  t.equal((await get('/asdas', 'br', { 'if-none-match': String(br.headers.etag) })).statusCode, 304);

  const head = await get('/asdas', 'br', {}, 'HEAD');
  t.equal(head.headers['content-encoding'], 'br');
  t.equal(head.headers['content-length'], String(br.rawPayload.length), 'HEAD: the length of the body a GET gets');
  t.equal(head.rawPayload.length, 0);
});

t.test('pages rendered for every request (logged in, flash) and JSON are compressed on the fly', async (t) => {
  const flashed = await get('/bonus', 'gzip', { cookie: 'flash=signedOut' });
  t.equal(flashed.headers['x-cache'], 'MISS');
  t.equal(flashed.headers['content-encoding'], 'gzip');
  t.match(decoded(flashed), /<html lang="en"/);
  t.ok(varies(flashed));
  // Thai text is multi-byte in UTF-8: the bytes compressed per response are the page's own.
  const thai = await get('/th/bonus', 'br', { cookie: 'flash=signedOut' });
  const thaiPlain = await get('/th/bonus', undefined, { cookie: 'flash=signedOut' });
  t.equal(thai.headers['content-encoding'], 'br');
  t.match(thaiPlain.body, /<html lang="th"/);
  t.equal(
    Number(thaiPlain.headers['content-length']),
    Buffer.byteLength(thaiPlain.body),
    'Content-Length in UTF-8 bytes',
  );
  t.equal(decoded(thai), thaiPlain.body, 'the same Thai page, compressed');

  const payload = await get('/asdas/_payload.json', 'br');
  t.equal(payload.headers['content-encoding'], 'br');
  t.ok(JSON.parse(decoded(payload)).data, 'the payload decodes');
  const sitemap = await get('/sitemap.xml', 'br');
  t.equal(sitemap.headers['content-encoding'], 'br', 'XML too');

  const small = await get('/api/auth/me', 'br');
  t.equal(small.statusCode, 401);
  t.equal(small.headers['content-encoding'], undefined, 'under 1 KB: as is');
});

t.test('hashed assets are sent pre-compressed from the build', async (t) => {
  const dir = join(projectRoot, 'dist/client/assets');
  const files = readdirSync(dir);
  const script = files
    .filter((name) => name.endsWith('.js'))
    .sort((a, b) => readFileSync(join(dir, b)).length - readFileSync(join(dir, a)).length)[0]!;
  t.ok(files.includes(`${script}.br`) && files.includes(`${script}.gz`), 'the build wrote .br and .gz');
  const original = readFileSync(join(dir, script));
  for (const [accept, encoding, suffix] of [
    ['br, gzip', 'br', '.br'],
    ['gzip', 'gzip', '.gz'],
    ['', undefined, ''],
  ] as const) {
    const response = await get(`/assets/${script}`, accept);
    t.equal(response.statusCode, 200);
    t.equal(response.headers['content-encoding'], encoding, `${accept || 'nothing'} → ${encoding ?? 'identity'}`);
    t.same(response.rawPayload, readFileSync(join(dir, `${script}${suffix}`)), 'the stored file, byte for byte');
    t.match(response.headers['content-type'], /javascript/);
    t.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.ok(varies(response));
  }
  t.ok(readFileSync(join(dir, `${script}.br`)).length * 3 < original.length, 'brotli at least a third smaller');
  const font = files.find((name) => name.endsWith('.woff2'))!;
  const fontResponse = await get(`/assets/${font}`, 'br, gzip');
  t.equal(fontResponse.headers['content-encoding'], undefined, 'fonts are compressed already');
});

t.test("the public folder's files, and nothing of the SSR bundle", async (t) => {
  for (const file of ['favicon.svg', 'og-image.png', 'apple-touch-icon.png'])
    t.equal((await get(`/${file}`, 'br')).statusCode, 200, `/${file}`);
  t.equal((await get('/index.html', 'br')).statusCode, 404, 'not the HTML template');
  const chunk = readdirSync(join(projectRoot, 'dist/server/assets')).find((name) => name.endsWith('.js'))!;
  t.notOk(readdirSync(join(projectRoot, 'dist/client/assets')).includes(chunk), `${chunk} is the server's alone`);
  t.equal((await get(`/assets/${chunk}`, 'br')).statusCode, 404, 'a server chunk is not served');
});
