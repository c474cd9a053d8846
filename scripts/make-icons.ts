// `npx tsx scripts/make-icons.ts`: the PNG images of client/public/, drawn by Debian's Chromium from
// favicon.svg: apple-touch-icon.png (180 px, square: iOS rounds the corners itself) and the share
// image og-image.png (1200x630: the mark, the name and both languages' tagline in the site's fonts).
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { launchBrowser } from '../test/helpers/browser.ts';

const root = resolve(import.meta.dirname, '..');
const publicDir = resolve(root, 'client/public');
const mark = readFileSync(resolve(publicDir, 'favicon.svg'), 'utf8');
// Inline, as the page has no origin to load files from.
const font = (path: string) =>
  `data:font/woff2;base64,${readFileSync(resolve(root, 'node_modules/@fontsource-variable', path)).toString('base64')}`;

const fonts = `
@font-face { font-family: Latin; font-weight: 100 900; src: url('${font('noto-sans/files/noto-sans-latin-wght-normal.woff2')}'); }
@font-face { font-family: Thai; font-weight: 100 900; src: url('${font('noto-sans-thai/files/noto-sans-thai-thai-wght-normal.woff2')}'); }
body { margin: 0; font-family: Latin, Thai, sans-serif; }`;

const touchIcon = `<style>${fonts} svg { display: block; width: 180px; height: 180px; }</style>
${mark.replace(/ rx="\d+"/, '')}`;

const shareImage = `<style>${fonts}
main { box-sizing: border-box; width: 1200px; height: 630px; padding: 96px; display: flex; flex-direction: column;
  justify-content: center; gap: 28px; background: #0f5e4d; color: #fff; }
.brand { display: flex; align-items: center; gap: 36px; font-size: 112px; font-weight: 800; letter-spacing: -2px; }
.brand svg { width: 150px; height: 150px; }
.brand svg rect { fill: #fff; } .brand svg path { fill: #0f5e4d; }
p { margin: 0; font-size: 54px; font-weight: 500; line-height: 1.35; opacity: 0.92; }</style>
<main><div class="brand">${mark}<span>Asdas</span></div><p>${en.site.tagline}</p><p lang="th">${th.site.tagline}</p></main>`;

const browser = await launchBrowser();
try {
  for (const [file, html, width, height] of [
    ['apple-touch-icon.png', touchIcon, 180, 180],
    ['og-image.png', shareImage, 1200, 630],
  ] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.setContent(html);
    await page.evaluate(() => document.fonts.ready);
    writeFileSync(resolve(publicDir, file), await page.screenshot({ type: 'png' }));
    await page.close();
  }
} finally {
  await browser.close();
}
