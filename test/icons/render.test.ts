import t from 'tap';
import { appIcons, languageSwitchIcon, navigationIcons } from '../../contract/app-icons.ts';
import { loadIcons } from '../../lib/icons/local-sets.ts';
import { browserUserAgent, startTestApp } from '../helpers/app.ts';
import { pageStateOf } from '../helpers/page-state.ts';

// The production build in dist/ (run `node scripts/build.mjs` first).
const { app, close, logs } = await startTestApp();
t.teardown(close);

const page = (url: string) => app.inject({ url, headers: { 'user-agent': browserUserAgent } });

/** The `<svg>` a server page rendered for an icon, with its attributes and body. */
function svgFor(html: string, name: string) {
  const match = new RegExp(`<svg ([^>]*data-icon="${name}"[^>]*)>([\\s\\S]*?)</svg>`).exec(html);
  if (!match) return null;
  const attributes = Object.fromEntries([...match[1]!.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  return { attributes, body: match[2]! };
}

function snapshotOf(html: string): { icons?: Record<string, unknown>; iconFallbackUrl?: string } {
  return pageStateOf(html).runtime;
}

t.test('every icon of contract/app-icons.ts is in the installed sets', async (t) => {
  const icons = await loadIcons(appIcons);
  t.same(Object.keys(icons).sort(), [...appIcons].sort());
  t.notOk(
    logs.some((line) => String(line.msg).includes('not in the installed sets')),
    'no start-up warning',
  );
});

for (const url of ['/', '/th/asdas', '/no/such/page']) {
  t.test(`${url}: the navigation icons are inline SVG in the server HTML`, async (t) => {
    const html = (await page(url)).body;
    for (const [key, name] of Object.entries(navigationIcons)) {
      const svg = svgFor(html, name);
      t.ok(svg, `${key} has its icon ${name}`);
      if (!svg) continue;
      t.equal(svg.attributes.viewBox, '0 0 24 24', `${name} has a viewBox`);
      t.equal(svg.attributes.width, '1em');
      t.equal(svg.attributes.height, '1em');
      t.equal(svg.attributes['aria-hidden'], 'true', 'decorative');
      t.match(svg.body, /^<path fill="currentColor" d="[Mm][^"]+"\/>$/, `${name} has its path data`);
      t.notOk('data-icon-state' in svg.attributes, 'not a placeholder');
    }
    // The icon sits before the label, which stays its own text node.
    t.match(html, /data-nav="bonus"[^>]*>(<svg [^>]*data-icon="mdi:gift"[^>]*>.*?<\/svg>)<span>[^<]+<\/span><\/a>/);
    t.match(html, /data-nav="play">(<svg [^>]*data-icon="mdi:play"[^>]*>.*?<\/svg>)<span>[^<]+<\/span><\/button>/);
  });
}

t.test('the language switch shows a neutral mark and the language name, no flag', async (t) => {
  for (const [path, name, target] of [
    ['/', 'ภาษาไทย', 'th'],
    ['/th', 'English', 'en'],
  ] as const) {
    const html = (await page(path)).body;
    const svg = svgFor(html, languageSwitchIcon);
    t.ok(svg, `${path}: the mark`);
    t.equal(svg?.attributes['aria-hidden'], 'true', 'decorative: the name is the label');
    t.notMatch(html, /circle-flags:/, `${path}: no flag anywhere`);
    const link = /<a [^>]*data-testid="language-switch"[^>]*>/.exec(html)?.[0] ?? '';
    t.match(link, new RegExp(`hrefLang="${target}"|hreflang="${target}"`), 'hreflang names the language');
    t.match(link, new RegExp(` lang="${target}"`), 'and lang, so the name is read in it');
    t.match(html, new RegExp(`data-testid="language-switch"[^>]*>(<svg [^>]*>.*?</svg>)<span>${name}</span></a>`));
  }
});

t.test('the page carries the same icon data for hydration, and no client-only icon', async (t) => {
  const html = (await page('/')).body;
  const snapshot = snapshotOf(html);
  t.same(snapshot.icons, await loadIcons(appIcons), 'exactly what the server rendered from');
  t.equal(snapshot.iconFallbackUrl, 'https://api.iconify.design');
  t.notMatch(html, /mdi:arrow-up/, 'the back-to-top icon is fetched in the browser only');
  t.ok(JSON.stringify(snapshot.icons).length < 6000, 'the icon data stays small');
});

t.test('the browser fallback follows ICON_UPSTREAM_URL (the origin the CSP allows)', async (t) => {
  const other = await startTestApp({ ICON_UPSTREAM_URL: 'https://icons.example.test' });
  t.teardown(other.close);
  const response = await other.app.inject({ url: '/', headers: { 'user-agent': browserUserAgent } });
  t.equal(snapshotOf(response.body).iconFallbackUrl, 'https://icons.example.test');
  t.match(response.headers['content-security-policy'], /connect-src 'self' https:\/\/icons\.example\.test/);
});
