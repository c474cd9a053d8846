/**
 * A path that is not a readable page path is a 4xx before any page code runs
 * (lib/canonical-path.ts, plugins/app/canonical-path.ts): every control character (C0, DEL, C1,
 * U+2028, U+2029), escaped or raw, through every kind of page, GET and form POST, is 400
 * `MALFORMED_PATH` with the security headers; a segment over 500 characters is 414
 * `PATH_TOO_LONG`. Never a 5xx, never an error log line. Over real HTTP, as a client sends it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import enStrings from '../../locales/en.json' with { type: 'json' };
import thStrings from '../../locales/th.json' with { type: 'json' };
import { buildApp } from '../../app.ts';
import { testHashing } from '../../lib/auth/passwords.ts';
import { loadConfig } from '../../lib/config.ts';
import { collectingLogger } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const origin = 'http://localhost:3000';

function send(port: number, method: string, path: string): Promise<Answer> {
  const form = method === 'POST';
  return new Promise((done, fail) => {
    const request = httpRequest({
      host: '127.0.0.1',
      port,
      method,
      path,
      headers: form
        ? { 'content-type': 'application/x-www-form-urlencoded', origin, accept: 'text/html' }
        : { accept: 'text/html' },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', fail);
    request.end(form ? 'email=a%40example.com&password=x' : undefined);
  });
}

/** The request line with `byte` raw in the path: Node's HTTP client would refuse to send it. */
function sendRaw(port: number, path: Buffer): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => done(answer));
    socket.on('error', fail);
    socket.end(Buffer.concat([Buffer.from('GET '), path, Buffer.from(' HTTP/1.1\r\nHost: localhost\r\n\r\n')]));
  });
}

const pages = [
  '/',
  '/th',
  '/bonus',
  '/th/terms-apply',
  '/play-responsibility',
  '/asdas',
  '/th/asdas/rtp-explained',
  '/author/nicha-srisuk',
  '/login',
  '/th/registration',
  '/forgot-password',
  '/reset-password',
  '/account',
  '/play',
  '/x',
];
const hex = (code: number) => `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
const controls = [
  ...Array.from({ length: 0x20 }, (_, code) => hex(code)),
  '%7F',
  ...Array.from({ length: 0x20 }, (_, code) => `%C2${hex(0x80 + code)}`),
  '%E2%80%A8',
  '%E2%80%A9',
];

const database = await createTestDatabase('sqlite');
const dataDir = mkdtempSync(join(tmpdir(), 'asdas-path-bytes-'));
const logs: Record<string, unknown>[] = [];
const app = await buildApp({
  config: loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  }),
  logger: collectingLogger(logs, 'info'),
  database: { db: database.db },
  accounts: { passwordHashing: testHashing },
});
t.teardown(async () => {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});
const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
type Refusal =
  | { status: 400; code: 'MALFORMED_PATH'; key: 'malformedPath' }
  | { status: 414; code: 'PATH_TOO_LONG'; key: 'pathTooLong' };
const malformed: Refusal = { status: 400, code: 'MALFORMED_PATH', key: 'malformedPath' };
/** The refusal as JSON, or (a browser asked, issue 50) the framed page saying why in its language. */
function refusedAs(answer: { status: number; body: string }, { status, code, key }: Refusal = malformed): boolean {
  if (answer.status !== status) return false;
  if (answer.body.startsWith('{')) return (JSON.parse(answer.body) as { code?: string }).code === code;
  return [enStrings, thStrings].some((strings) => answer.body.includes(strings.error.details[key]));
}
const errorLines = () => logs.filter((line) => Number(line.level) >= 50);

t.test('every escaped control character, in every kind of page, GET and POST: 400 MALFORMED_PATH', async (t) => {
  const wrong: string[] = [];
  for (const page of pages)
    for (const control of controls)
      for (const path of [`${page}${control}`, `${page === '/' ? '' : page}/x${control}y`])
        for (const method of ['GET', 'POST']) {
          const answer = await send(port, method, path);
          if (!refusedAs(answer) || !answer.headers['content-security-policy'])
            wrong.push(`${method} ${path}: ${answer.status} ${answer.body.slice(0, 80)}`);
        }
  t.same(wrong, [], `${pages.length * controls.length * 4} requests, each refused with the security headers`);
  t.same(errorLines(), [], 'no error log line');
});

t.test(
  'and in every other route: the API (JSON even to a browser), icons, build manifests, assets, probes',
  async (t) => {
    const wrong: string[] = [];
    for (const path of ['/api/auth/me', '/api/_nuxt_icon/mdi', '/builds/meta/a', '/assets/x', '/healthz', '/robots'])
      for (const control of controls) {
        const answer = await send(port, 'GET', `${path}${control}.json`);
        if (!refusedAs(answer) || (path.startsWith('/api/') && !answer.body.startsWith('{')))
          wrong.push(`${path}${control}: ${answer.status}`);
      }
    t.same(wrong, [], 'each refused before its route runs');
    t.same(errorLines(), [], 'no error log line');
  },
);

t.test('a raw control or non-ASCII byte: the same 400, from the listener', async (t) => {
  const wrong: string[] = [];
  for (const byte of [
    ...Array.from({ length: 0x20 }, (_, code) => code),
    ...Array.from({ length: 0x81 }, (_, i) => 0x7f + i),
  ]) {
    if (byte === 0x0a || byte === 0x20) continue; // they end the path: what follows is not a request line
    const answer = await sendRaw(port, Buffer.from([...Buffer.from('/bonus'), byte]));
    if (
      !answer.startsWith('HTTP/1.1 400 ') ||
      !answer.includes('"code":"MALFORMED_PATH"') ||
      !/\r\nContent-Security-Policy: /i.test(answer)
    )
      wrong.push(`byte ${hex(byte)}: ${answer.split('\r\n')[0]}`);
  }
  t.same(wrong, [], 'every byte refused with the security headers');
  t.same(errorLines(), [], 'no error log line');
});

t.test('a segment over 500 characters: 414 PATH_TOO_LONG, at 501 and far past', async (t) => {
  for (const path of [
    `/${'a'.repeat(501)}`,
    `/asdas/${'a'.repeat(600)}`,
    `/th/${'b'.repeat(5_000)}`,
    `/author/${'%E0%B8%81'.repeat(501)}`,
    `/api/_nuxt_icon/${'a'.repeat(600)}`,
  ])
    for (const method of ['GET', 'POST']) {
      const answer = await send(port, method, path);
      t.equal(answer.status, 414, `${method} ${path.slice(0, 24)}… (${path.length})`);
      t.ok(refusedAs(answer, { status: 414, code: 'PATH_TOO_LONG', key: 'pathTooLong' }), 'saying why');
      t.ok(answer.headers['content-security-policy'], 'with the security headers');
    }
  t.equal((await send(port, 'GET', `/${'a'.repeat(500)}`)).status, 404, 'at 500 a page that is not there');
  t.equal((await send(port, 'GET', `/author/${'%E0%B8%81'.repeat(500)}`)).status, 404, 'counted in characters');
  t.same(errorLines(), [], 'no error log line');
});
