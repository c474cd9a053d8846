// `npm run snapshots -- <folder>`: what the server answers for a fixed set of addresses (pages in
// both languages, every error status, payloads, redirects), one file each, so a refactoring can be
// shown to change nothing: take snapshots before and after, then `diff -r before after`. The build
// id and the hashes in asset names are replaced by placeholders (they change with every build).
// Runs the production build in this process with an empty embedded database in a temporary folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const usage = `npm run snapshots -- <folder>

  Writes what the production build answers for a fixed set of addresses (pages in both languages,
  every error status, payloads, redirects, forms posted without JavaScript) into <folder>, one file
  each, build ids and asset hashes replaced by placeholders. Compare two runs with diff -r.`;
const outDir = process.argv[2];
if (outDir === '--help' || outDir === '-h') {
  console.log(usage);
  process.exit(0);
}
if (!outDir || outDir.startsWith('-')) {
  console.error(usage);
  process.exit(2);
}

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const pages = [
  '/',
  '/asdas',
  '/asdas/rtp-explained',
  '/bonus',
  '/terms-apply',
  '/play-responsibility',
  '/author',
  '/author/nicha-srisuk',
  '/table-of-content',
  '/login',
  '/registration',
  '/forgot-password',
];
const errors = ['/no/such/page', '/asdas/Not_A_Slug', '/asdas?page=x', '/asdas?page=999'];
const payloads = [
  '/_payload.json',
  '/asdas/_payload.json',
  '/asdas/rtp-explained/_payload.json',
  '/no/such/_payload.json',
];
const others = ['/account', '/bonus/', '/api/no-such-endpoint', '/sitemap.xml', '/robots.txt'];
/** Forms posted without JavaScript: each with an error the page shows, then a success. */
const forms: [string, Record<string, string> | string][] = [
  ['/login', { email: '', password: '' }],
  ['/th/login', { email: 'nobody@example.com', password: 'wrong-password' }],
  ['/login', 'email=%FF&password=x'],
  ['/registration', { email: 'not-an-email', password: 'short', displayName: '' }],
  ['/forgot-password', { email: '' }],
  ['/bonus', { a: '1' }],
  [
    '/registration',
    {
      email: 'snap@example.com',
      password: 'a long enough password 1',
      displayName: 'Snap',
      acceptTerms: 'on',
      confirmAge: 'on',
    },
  ],
  // Signed in from here on.
  ['/account', { intent: 'profile', displayName: '', locale: 'en' }],
  ['/th/account', { period: '24h' }],
  ['/account', { intent: 'nope' }],
];
/** Then, signed in as that account; the shared pages twice (the second answer comes from the page's shell). */
const signedIn = ['/account', '/th/account', '/account/_payload.json', '/login', '/th/registration', '/play'];
const signedInShared = ['/', '/th', '/asdas', '/asdas/rtp-explained', '/th/bonus', '/author/nicha-srisuk'];
const addresses = [
  ...['', '/th'].flatMap((prefix) =>
    [...pages, ...errors, ...payloads].map((path) => (prefix && path === '/' ? prefix : `${prefix}${path}`)),
  ),
  ...others,
];

const dataDir = mkdtempSync(join(tmpdir(), 'asdas-snapshots-'));
const { loadConfig } = await import('../lib/config.ts');
const { buildApp } = await import('../app.ts');
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  PUBLIC_URL: 'https://asdas.example',
});
const app = await buildApp({ config });
try {
  mkdirSync(resolve(outDir), { recursive: true });
  let count = addresses.length;
  const write = (address: string, response: Awaited<ReturnType<typeof app.inject>>) => {
    const body = response.body
      .replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replaceAll(/-[A-Za-z0-9_-]{8}\.(js|css|woff2)\b/g, '-<hash>.$1')
      .replaceAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      .replaceAll(/[0-9a-f]{64}/g, '<token>')
      .replaceAll(/\d\d:\d\d UTC/g, '<hh:mm> UTC');
    const head = [
      `${response.statusCode} ${String(response.headers['content-type'] ?? '')}`,
      `location: ${String(response.headers.location ?? '')}`,
    ];
    const file = address.replaceAll(/[^A-Za-z0-9.-]+/g, '_') || '_';
    writeFileSync(resolve(outDir, `${file}.txt`), `${head.join('\n')}\n\n${body}`);
  };
  for (const address of addresses) {
    write(address, await app.inject({ url: address, headers: { 'user-agent': browser, 'accept-language': 'en' } }));
  }
  let cookie = '';
  for (const [index, [address, form]] of forms.entries()) {
    const response = await app.inject({
      method: 'POST',
      url: address,
      headers: {
        'user-agent': browser,
        origin: 'https://asdas.example',
        host: 'asdas.example',
        'x-forwarded-proto': 'https',
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      },
      payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
    });
    const token = response.cookies.find((c) => c.name === 'token');
    if (token) cookie = `token=${token.value}`;
    write(`POST${index}${address}`, response);
  }
  for (const address of signedIn) {
    write(`signed-in${address}`, await app.inject({ url: address, headers: { 'user-agent': browser, cookie } }));
  }
  for (const address of signedInShared) {
    const headers = { 'user-agent': browser, cookie };
    await app.inject({ url: address, headers });
    write(`signed-in${address}`, await app.inject({ url: address, headers }));
  }
  count += forms.length + signedIn.length + signedInShared.length;
  console.log(`${count} answers written to ${resolve(outDir)}`);
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
