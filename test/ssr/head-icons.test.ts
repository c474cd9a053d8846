import { readFileSync } from 'node:fs';
import t from 'tap';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';

// What a phone's home screen, a browser's toolbar and a shared link show (issue 40): every page
// names a theme colour, an apple-touch-icon and a share image, all real PNGs this site serves, and
// carries its icon inline (client/index.html), the same drawing as client/public/favicon.svg.

const { app, close } = await startTestApp({ PUBLIC_URL: 'https://asdas.example' });
t.teardown(close);

/** A PNG's width and height, from its IHDR chunk; undefined when it is not a PNG. */
function pngSize(body: Buffer): [number, number] | undefined {
  if (body.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') return undefined;
  return [body.readUInt32BE(16), body.readUInt32BE(20)];
}

t.test('every page names its theme colour, touch icon and share image', async (t) => {
  const favicon = readFileSync(new URL('../../client/public/favicon.svg', import.meta.url), 'utf8').trim();
  for (const path of ['/', '/th', '/asdas/rtp-explained', '/th/bonus', '/login', '/no-such-page']) {
    const html = (await app.inject({ url: path, headers: { 'user-agent': browserUserAgent } })).body;
    t.match(html, /<meta name="theme-color" content="#0f5e4d"/, `${path}: theme colour`);
    t.match(html, /<link rel="apple-touch-icon" href="\/apple-touch-icon\.png"/, `${path}: touch icon`);
    const icon = /<link\s+rel="icon"\s+href="data:image\/svg\+xml,([^"]+)"/.exec(html)?.[1];
    t.equal(
      icon && decodeURIComponent(icon).replace(/'/g, '"'),
      favicon,
      `${path}: the icon inline, drawn as favicon.svg`,
    );
    if (path !== '/no-such-page') {
      t.match(
        html,
        /<meta property="og:image" content="https:\/\/asdas\.example\/og-image\.png"/,
        `${path}: share image`,
      );
      t.match(html, /<meta name="twitter:card" content="summary_large_image"/);
    }
  }
});

t.test('the images are PNGs of the sizes they are named for', async (t) => {
  for (const [path, size] of [
    ['/apple-touch-icon.png', [180, 180]],
    ['/og-image.png', [1200, 630]],
  ] as const) {
    const response = await app.inject({ url: path });
    t.equal(response.statusCode, 200, path);
    t.equal(response.headers['content-type'], 'image/png', `${path}: image/png`);
    t.same(pngSize(response.rawPayload), size, `${path}: ${size.join('x')}`);
  }
});
