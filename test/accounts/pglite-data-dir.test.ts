import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';

// The production default: no DATABASE_URL, PGlite in DATA_DIR, created on first start (initdb
// takes a few seconds, which is why every other test starts from a template instead).
t.test('PGlite in DATA_DIR: created on first start, kept across restarts', async (t) => {
  const parent = await mkdtemp(join(tmpdir(), 'asdas-data-'));
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const dataDir = join(parent, 'nested', 'data');
  const env = { DATA_DIR: dataDir };

  const first = await buildTestApp({ env });
  const body = validRegistration();
  const registered = await first.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  t.equal(registered.statusCode, 201);
  t.equal((await first.inject({ url: '/readyz' })).json().checks.database, 'ok');
  await first.close();
  t.ok((await readdir(dataDir)).includes('PG_VERSION'), 'a PostgreSQL data folder');

  const second = await buildTestApp({ env });
  t.teardown(() => second.close());
  const login = await second.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: body.email, password: body.password },
  });
  t.equal(login.statusCode, 200, 'the account survived the restart');
  t.same(login.json(), registered.json());
});
