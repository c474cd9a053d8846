/**
 * docs/accounts.md's curl exchange (register, login, call with Bearer, logout) run as written
 * against a real server: a programmatic client gets its token from the JSON body.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/accounts.md'), 'utf8');
const exchange = /### A client's whole exchange[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)?.[1];

t.test('the documented exchange works as written, and says what the doc says', async (t) => {
  t.ok(exchange, 'docs/accounts.md holds the exchange');
  const database = await createTestDatabase('sqlite');
  t.teardown(() => database.close());
  const app = await buildTestApp({ database });
  t.teardown(() => app.close());
  const site = await app.listen({ port: 0, host: '127.0.0.1' });
  const script = exchange!.replace(/^SITE=.*$/m, `SITE=${site}`);
  // Not execFileSync: the server answering curl runs in this process.
  const { stdout } = await promisify(execFile)('sh', ['-e', '-c', script], { encoding: 'utf8' });
  const output = stdout.trim().split('\n');
  t.equal(output.length, 4, 'four answers printed: registration, me, logout, me again');
  const [registered, me, logout, after] = output;
  t.match(JSON.parse(registered!), { user: { email: 'ada@example.com' }, token: /^[\w-]{20,}$/, expiresAt: String });
  t.match(JSON.parse(me!), { user: { email: 'ada@example.com', displayName: 'Ada' } }, 'the Bearer token works');
  t.equal(logout, '204', 'logout');
  t.equal(after, '401', 'and the token is over');
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'ada@example.com', password: 'a long passphrase 42' },
  });
  const body = login.json<{ token: string; expiresAt: string }>();
  t.match(String(login.headers['set-cookie']), new RegExp(`token=${body.token};`), 'the cookie carries the same token');
  const days = (Date.parse(body.expiresAt) - Date.now()) / 86_400_000;
  t.ok(days > 29.9 && days <= 30, `expiresAt is SESSION_TTL_DAYS away (${days.toFixed(3)} days)`);
});
