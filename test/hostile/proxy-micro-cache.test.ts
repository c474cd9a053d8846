/**
 * The shipped nginx's micro-cache (deploy/nginx/site.conf) against what a visitor could send to
 * break it: a flood of made-up queries, cookies and header spellings must add no copy; a session
 * cookie or a Bearer token must never meet a stored page; an encoding or a first visit preferring
 * Thai must never get another visitor's answer.
 */
import { readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import t from 'tap';
import { browserUserAgent } from '../helpers/app.ts';
import { nginxMissing, startShippedNginx } from '../helpers/nginx.ts';
import { startOwnServer } from '../helpers/server-process.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string | string[]> = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const ask = request(url, { agent: false, headers: { 'user-agent': browserUserAgent, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', fail);
    });
    ask.on('error', fail);
    ask.end();
  });
}

/** The pages nginx keeps on disk: one file per key. */
function storedPages(prefix: string): number {
  const walk = (dir: string): number =>
    readdirSync(dir).reduce((count, name) => {
      const path = join(dir, name);
      return count + (statSync(path).isDirectory() ? walk(path) : 1);
    }, 0);
  return walk(join(prefix, 'asdas-pages-cache'));
}

const skip = nginxMissing();
t.test('the micro-cache holds what the app shares, once per key, and never for a session', { skip }, async (t) => {
  const app = startOwnServer(t, 'proxy-cache', { TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'info' });
  const appOrigin = app.listening;
  const nginx = await startShippedNginx([new URL(await app.listening).host]);
  t.teardown(nginx.stop);
  const { base } = nginx;

  t.equal((await get(`${base}/bonus`, { 'accept-encoding': 'br' })).headers['x-cache-status'], 'MISS');
  t.equal((await get(`${base}/bonus`, { 'accept-encoding': 'br' })).headers['x-cache-status'], 'HIT');
  const before = storedPages(nginx.prefix);

  // 300 made-up variations of one page: queries it does not read, cookies, header spellings; 30 at a
  // time (stream.conf bounds one address to 128 connections).
  const vary = (n: number) => {
    const kind = n % 3;
    if (kind === 0) return get(`${base}/bonus?utm_source=${n}`, { 'accept-encoding': 'br' });
    if (kind === 1) return get(`${base}/bonus`, { 'accept-encoding': 'br', cookie: `tracker=${n}; lang=en${n}` });
    return get(`${base}/bonus`, {
      'accept-encoding': `gzip;q=0.${(n % 9) + 1}, br, x-${n}`,
      'accept-language': `fr-${n}`,
    });
  };
  const answers: Answer[] = [];
  for (let first = 0; first < 300; first += 30)
    answers.push(...(await Promise.all(Array.from({ length: 30 }, (_, n) => vary(first + n)))));
  t.same([...new Set(answers.map((answer) => answer.status))], [200], 'every one answered');
  t.ok(
    storedPages(nginx.prefix) <= before + 1,
    `no copy per variation: ${before} stored before, ${storedPages(nginx.prefix)} after (the lang cookie's "other" at most)`,
  );

  t.test('an encoding never gets another encoding’s body', async (t) => {
    for (const [accept, expected] of [
      ['gzip', 'gzip'],
      // A refusal (q=0) is answered uncompressed (site.conf), never with what it refused.
      ['br;q=0, gzip', undefined],
      ['gzip;q=0, br', undefined],
      ['identity', undefined],
      ['', undefined],
      ['gzip, deflate, br, zstd', 'br'],
    ] as const) {
      await get(`${base}/terms-apply`, { 'accept-encoding': accept });
      const answer = await get(`${base}/terms-apply`, { 'accept-encoding': accept });
      t.equal(answer.headers['content-encoding'], expected, `Accept-Encoding "${accept}"`);
      t.equal(answer.headers['x-cache-status'], 'HIT', `from the micro-cache (${accept})`);
    }
  });

  t.test('a session or a Bearer token never meets a stored page', async (t) => {
    const registered = await fetch(`${base}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'cached@example.com',
        password: 'a long passphrase 42',
        displayName: 'Cached Reader',
        locale: 'en',
        acceptTerms: true,
        confirmAge: true,
      }),
    });
    t.equal(registered.status, 201);
    const token = /token=([^;]+)/.exec(registered.headers.get('set-cookie') ?? '')?.[1] ?? '';
    for (const headers of <Array<Record<string, string>>>[
      { cookie: `token=${token}` },
      { cookie: `lang=en; token=${token}` },
      { cookie: `token=${token}; flash=signed-in` },
      { authorization: `Bearer ${token}` },
    ]) {
      const answer = await get(`${base}/bonus`, { 'accept-encoding': 'br', ...headers });
      t.equal(answer.headers['x-cache-status'], 'BYPASS', JSON.stringify(Object.keys(headers)));
      t.equal(answer.headers['cache-control'], 'private, no-store');
    }
    // Every spelling the app's cookie parser reads as the session, nginx reads so too, and the
    // reverse: the micro-cache answers exactly the requests the app answers as anonymous.
    const app = await appOrigin;
    for (const [spelling, headers] of <Array<[string, Record<string, string | string[]>]>>[
      ['token =T', { cookie: `token =${token}` }],
      [' token =T', { cookie: ` token =${token}` }],
      ['token<TAB>=T', { cookie: `token\t=${token}` }],
      ['<TAB>token=T', { cookie: `\ttoken=${token}` }],
      ['a=1; token =T', { cookie: `a=1; token =${token}` }],
      ['a=1;token=T', { cookie: `a=1;token=${token}` }],
      ['two Cookie headers', { cookie: ['lang=en', `token =${token}`] }],
      ['flash =signed-in', { cookie: 'flash =signed-in' }],
      ['token= (empty)', { cookie: 'token=' }],
      ['Token=T', { cookie: `Token=${token}` }],
      ['xtoken=T', { cookie: `xtoken=${token}` }],
      ['token (no =)', { cookie: 'token' }],
      ['Authorization: (empty)', { authorization: '' }],
      ['Authorization: (spaces)', { authorization: '   ' }],
      ['Authorization: Basic', { authorization: 'Basic eDp5' }],
    ]) {
      const direct = await get(`${app}/bonus`, { 'accept-encoding': 'br', ...headers });
      const personal = direct.headers['cache-control'] === 'private, no-store';
      await get(`${base}/bonus`, { 'accept-encoding': 'br', ...headers });
      const proxied = await get(`${base}/bonus`, { 'accept-encoding': 'br', ...headers });
      t.equal(
        proxied.headers['x-cache-status'] === 'BYPASS',
        personal,
        `${spelling}: the app answers it as ${personal ? 'personal' : 'anonymous'}, and so does nginx`,
      );
      if (spelling.includes('token =') || spelling.includes('TAB'))
        t.match(brotliDecompressSync(proxied.body).toString(), /data-testid="signed-in"/, `${spelling}: signed in`);
    }

    const signedIn = await get(`${base}/bonus`, { cookie: `token=${token}` });
    t.match(signedIn.body.toString(), /data-testid="signed-in"/, 'the page for the visitor, not the stored one');
    const anonymous = await get(`${base}/bonus`);
    t.notMatch(anonymous.body.toString(), /data-testid="signed-in"/, 'and no one else gets it');
  });

  t.test('a first visit preferring Thai is sent to /th, whatever `/` nginx keeps', async (t) => {
    await get(`${base}/`);
    t.equal((await get(`${base}/`)).headers['x-cache-status'], 'HIT', 'the English home is kept');
    const thai = await get(`${base}/`, { 'accept-language': 'th-TH,th;q=0.9,en;q=0.5' });
    t.equal(thai.status, 302);
    t.equal(thai.headers.location, '/th');
    const chosen = await get(`${base}/`, { 'accept-language': 'th', cookie: 'lang=en' });
    t.equal(chosen.status, 200, 'English chosen: the English home');
  });
});
