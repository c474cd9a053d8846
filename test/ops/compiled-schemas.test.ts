/**
 * `npm run build` compiles every route's validators and serializers to code (decision 0042): a
 * production start must find each one there, and the compiled code must answer as Ajv and
 * fast-json-stringify compiling at start do. Needs the build (npm test builds first).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { projectRoot } from '../../lib/build-info.ts';
import { compiledSchemasFile, loadCompiledSchemas, missedSchemas } from '../../lib/schemas/compiled.ts';
import { bearer, tokenCookie, validRegistration } from '../helpers/accounts.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const json = { 'content-type': 'application/json' };
const requests = [
  { method: 'POST', url: '/api/auth/register', headers: json, payload: { email: 'not-an-address', password: 7 } },
  { method: 'POST', url: '/api/auth/register', headers: json, payload: { email: 'a@example.com' } },
  {
    method: 'POST',
    url: '/api/auth/login',
    headers: json,
    payload: { email: 'a@example.com', password: 'x', more: 1 },
  },
  { method: 'POST', url: '/api/auth/login', headers: json, payload: { email: ['a@example.com'], password: 'x' } },
  { method: 'POST', url: '/api/auth/password-reset', headers: json, payload: { email: 12 } },
  { method: 'POST', url: '/api/play', headers: json, payload: { locale: 'fr' } },
  { method: 'GET', url: '/api/_nuxt_icon/mdi.json?icons=home' },
  { method: 'GET', url: '/api/_nuxt_icon/mdi.json?icons=home&icons=account' },
  { method: 'GET', url: '/api/_nuxt_icon/mdi.json' },
  { method: 'GET', url: '/api/_nuxt_icon/MDI!.json?icons=home' },
  { method: 'GET', url: '/api/auth/me' },
] as const;

/** What a client sees of each answer: status, type and body (request ids and dates left out). */
async function answers({ app }: TestApp) {
  const seen = [];
  for (const request of requests) {
    const answer = await app.inject(request);
    const body = String(answer.headers['content-type']).includes('json') ? answer.json() : answer.body.length;
    seen.push({ request: `${request.method} ${request.url}`, status: answer.statusCode, body });
  }
  // Signed in: the account's serializer, whose schema has anyOf (restored with its own Ajv).
  const registered = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: json,
    payload: validRegistration({ email: 'player@example.com' }),
  });
  const headers = bearer(tokenCookie(registered)!.value);
  for (const url of ['/api/auth/me', '/api/account']) {
    const answer = await app.inject({ url, headers });
    seen.push({ request: `signed in GET ${url}`, status: answer.statusCode, keys: Object.keys(answer.json()) });
  }
  seen.push({ request: 'register', status: registered.statusCode, keys: Object.keys(registered.json()) });
  return seen;
}

t.test('a production start finds every schema compiled by the build, and it answers alike', async (t) => {
  t.ok(existsSync(join(projectRoot, compiledSchemasFile)), 'npm run build wrote the compiled schemas');
  const compiledAtStart = await startTestApp();
  const expected = await answers(compiledAtStart);
  await compiledAtStart.close();

  t.ok(loadCompiledSchemas() > 20, 'the table holds the routes’ validators and serializers');
  const fromBuild = await startTestApp();
  t.teardown(() => fromBuild.close());
  t.same(missedSchemas(), [], 'no schema was compiled at start');
  t.same(await answers(fromBuild), expected);
  const statuses = expected.map((seen) => seen.status);
  t.ok(statuses.includes(400) && statuses.includes(200) && statuses.includes(201), 'refused, served and created');
});
