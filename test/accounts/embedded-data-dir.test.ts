import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.ts';
import { validRegistration } from '../helpers/accounts.ts';

// The production default: no DATABASE_URL, SQLite in DATA_DIR, created on first start.
t.test('SQLite in DATA_DIR: created on first start, kept across restarts', async (t) => {
  const parent = await mkdtemp(join(tmpdir(), 'asdas-data-'));
  t.teardown(() => rm(parent, { recursive: true, force: true }));
  const dataDir = join(parent, 'nested', 'data');
  const env = { DATA_DIR: dataDir };

  const first = await buildTestApp({ env });
  const body = validRegistration();
  const registered = await first.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  t.equal(registered.statusCode, 201);
  t.equal((await first.inject({ url: '/readyz' })).json().checks.database, 'ok');
  const header = (await readFile(join(dataDir, 'asdas-site.sqlite'))).subarray(0, 20);
  t.equal(header.subarray(0, 16).toString('latin1'), 'SQLite format 3\0', 'an SQLite file');
  t.equal(header[18], 2, 'in WAL mode while it serves (file format 2)');
  await first.close();
  const files = await readdir(dataDir);
  t.ok(files.includes('asdas-site.sqlite'), `the database file is there: ${files.join(', ')}`);
  const wal = join(dataDir, 'asdas-site.sqlite-wal');
  t.equal(existsSync(wal) ? statSync(wal).size : 0, 0, 'a clean stop leaves every commit in the file itself');

  const second = await buildTestApp({ env });
  t.teardown(() => second.close());
  const login = await second.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: body.email, password: body.password },
  });
  t.equal(login.statusCode, 200, 'the account survived the restart');
  t.same(login.json().user, registered.json().user);
});

t.test("an earlier release's PGlite folder is refused, untouched, with what to do", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'asdas-pglite-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // What PGlite leaves in DATA_DIR: PostgreSQL's cluster layout.
  await writeFile(join(dataDir, 'PG_VERSION'), '17\n');
  await mkdir(join(dataDir, 'base'));
  const before = (await readdir(dataDir)).sort();

  await t.rejects(buildTestApp({ env: { DATA_DIR: dataDir } }), {
    name: 'PGliteDataFolderError',
    message: new RegExp(`${dataDir}.*PGlite database of an earlier release.*Nothing in it was changed.*import-pglite`),
  });
  const after = (await readdir(dataDir)).sort();
  t.same(
    after.filter((name) => name !== 'asdas-site.lock'),
    before,
    'no database file was created beside it',
  );
});
