import { type Kysely, type Migration, PostgresDialect, Kysely as KyselyClass, sql } from 'kysely';
import pg from 'pg';
import t from 'tap';
import {
  DatabaseNewerThanCodeError,
  executedMigrations,
  MigrationFailedError,
  migrateToLatest,
} from '../../lib/db/migrate.ts';
import { migrations as appMigrations } from '../../lib/db/migrations.ts';
import type { Database } from '../../lib/db/types.ts';
import { createTestDatabase, tableNames, type TestDatabase, testBackends } from '../helpers/database.ts';
import { buildTestApp } from '../helpers/app.ts';

/**
 * A second, independent connection pool to the same database (another replica). SQLite has one
 * process per file (decision 0025): its one connection serialises the two migrators.
 */
function secondConnection(database: TestDatabase): { db: Kysely<any>; close: () => Promise<void> } {
  if (database.backend === 'sqlite') return { db: database.db, close: async () => {} };
  const db = new KyselyClass<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }),
  });
  return { db, close: () => db.destroy() };
}

for (const backend of testBackends()) {
  t.test(`migrations on ${backend}`, async (t) => {
    t.test('a fresh database is migrated once; running again does nothing', async (t) => {
      const database = await createTestDatabase(backend, { migrate: false });
      t.teardown(() => database.close());
      t.same(await tableNames(database.db), []);
      const first = await migrateToLatest(database.db);
      t.same(first.applied, Object.keys(appMigrations).sort());
      t.same(await tableNames(database.db), [
        'account_tokens',
        'kysely_migration',
        'kysely_migration_lock',
        'launch_tokens',
        'login_addresses',
        'play_sessions',
        'self_exclusions',
        'sessions',
        'storage_probe',
        'users',
      ]);
      t.same((await migrateToLatest(database.db)).applied, []);
      t.same(await executedMigrations(database.db), Object.keys(appMigrations).sort());
    });

    t.test('a database migrated by newer code is refused, naming the unknown migrations', async (t) => {
      const database = await createTestDatabase(backend);
      t.teardown(() => database.close());
      const db = database.db as Kysely<any>;
      await db
        .insertInto('kysely_migration')
        .values([
          { name: '9001_play_sessions', timestamp: new Date().toISOString() },
          { name: '9002_self_exclusions', timestamp: new Date().toISOString() },
        ])
        .execute();

      const error = await migrateToLatest(db).then(
        () => null,
        (caught: unknown) => caught,
      );
      t.type(error, DatabaseNewerThanCodeError);
      t.same((error as DatabaseNewerThanCodeError).unknownMigrations, ['9001_play_sessions', '9002_self_exclusions']);
      t.match((error as Error).message, /migrations this code does not know: 9001_play_sessions, 9002_self_exclusions/);

      await t.rejects(buildTestApp({ database }), { name: 'DatabaseNewerThanCodeError' }, 'the app refuses to start');
      t.same(
        await tableNames(db),
        [
          'account_tokens',
          'kysely_migration',
          'kysely_migration_lock',
          'launch_tokens',
          'login_addresses',
          'play_sessions',
          'self_exclusions',
          'sessions',
          'storage_probe',
          'users',
        ],
        'nothing touched',
      );
    });

    t.test('a failing migration is rolled back and named', async (t) => {
      const database = await createTestDatabase(backend);
      t.teardown(() => database.close());
      const broken: Record<string, Migration> = {
        ...appMigrations,
        '9000_broken': {
          async up(db) {
            await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
            await sql`select * from no_such_table`.execute(db);
          },
        },
      };
      await t.rejects(migrateToLatest(database.db, { migrations: broken }), {
        name: 'MigrationFailedError',
        message: /Migration 9000_broken failed: .*no_such_table/,
      });
      t.notOk((await tableNames(database.db)).includes('half_done'), 'its changes are rolled back');
      t.same(await executedMigrations(database.db), Object.keys(appMigrations).sort(), 'not recorded');
      t.ok(MigrationFailedError);
    });

    if (backend === 'postgres')
      t.test("another client's schema dropped during a run: tried again, applied once", async (t) => {
        const database = await createTestDatabase(backend, { migrate: false });
        t.teardown(() => database.close());
        let runs = 0;
        const flaky: Record<string, Migration> = {
          '0001_once': {
            async up(db) {
              runs += 1;
              // What Kysely's catalogue read meets when another test's schema goes meanwhile.
              if (runs === 1) await sql`select has_schema_privilege('dropped_meanwhile', 'USAGE')`.execute(db);
              await sql`create table once (id int)`.execute(db);
            },
          },
        };
        t.same((await migrateToLatest(database.db, { migrations: flaky })).applied, ['0001_once']);
        t.equal(runs, 2, 'the first attempt failed and was rolled back; the second applied it');
        t.ok((await tableNames(database.db)).includes('once'));
        let failures = 0;
        const broken: Record<string, Migration> = {
          '0002_broken': {
            async up(db) {
              failures += 1;
              await sql`select * from no_such_table`.execute(db);
            },
          },
        };
        await t.rejects(migrateToLatest(database.db, { migrations: { ...flaky, ...broken } }), {
          name: 'MigrationFailedError',
        });
        t.equal(failures, 1, 'any other failure is not tried again');
      });

    t.test('two migrators at once: both succeed, each migration runs once', async (t) => {
      const database = await createTestDatabase(backend, { migrate: false });
      t.teardown(() => database.close());
      const other = secondConnection(database);
      t.teardown(() => other.close());

      const waited: string[] = [];
      /** On PostgreSQL the first migration holds the lock until the other migrator says it waits. */
      const otherWaits = async () => {
        const deadline = Date.now() + 30_000;
        while (!waited.some((line) => line.includes('waiting')) && Date.now() < deadline)
          await new Promise((done) => setTimeout(done, 20));
      };
      // Migrations that count their runs, the first one slow, so the two runs overlap.
      const counted: Record<string, Migration> = {
        '0001_counter': {
          async up(db) {
            await sql`create table runs (name text not null)`.execute(db);
            await sql`insert into runs values ('0001')`.execute(db);
            if (backend === 'postgres') await otherWaits();
          },
        },
        '0002_more': {
          async up(db) {
            await sql`insert into runs values ('0002')`.execute(db);
          },
        },
      };
      const [a, b] = await Promise.all([
        migrateToLatest(database.db, { migrations: counted, log: { info: (message) => waited.push(`a: ${message}`) } }),
        migrateToLatest(other.db, { migrations: counted, log: { info: (message) => waited.push(`b: ${message}`) } }),
      ]);
      t.same(
        [...a.applied, ...b.applied].sort(),
        ['0001_counter', '0002_more'],
        'each applied exactly once, by one of them',
      );
      t.ok(a.applied.length === 0 || b.applied.length === 0, 'one did all the work');
      const runs = await sql<{ name: string }>`select name from runs order by name`.execute(database.db);
      t.same(
        runs.rows.map((row) => row.name),
        ['0001', '0002'],
      );
      if (backend === 'postgres')
        t.ok(
          waited.some((line) => line.includes('waiting')),
          'the second waited for the lock',
        );
      t.comment(waited.join(' | '));
    });
  });
}
