/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on Kysely<any>: the schema as it was then */
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { migrations as knownMigrations } from './migrations.ts';

/** In the connection's current schema. */
const migrationTable = 'kysely_migration';

// First key of the advisory lock ('asda'); the second is the schema's hash, so apps in separate
// schemas of one database do not wait on each other.
const lockClass = 0x61736461;

export class DatabaseNewerThanCodeError extends Error {
  override name = 'DatabaseNewerThanCodeError';
  constructor(readonly unknownMigrations: string[]) {
    super(
      `The database has migrations this code does not know: ${unknownMigrations.join(', ')}. ` +
        'It was migrated by a newer version of the service; run that version (or restore a backup taken before the upgrade).',
    );
  }
}

export class MigrationFailedError extends Error {
  override name = 'MigrationFailedError';
}

export interface MigrationLog {
  info(message: string): void;
}

export interface MigrateOptions {
  /** Defaults to lib/db/migrations.ts. */
  migrations?: Record<string, Migration>;
  log?: MigrationLog;
}

export interface MigrateResult {
  applied: string[];
}

/**
 * Brings the database up to date on one connection holding an advisory lock, so replicas starting
 * at once wait their turn (decision 0001). Refuses a database with migrations the code does not know.
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrateResult> {
  const all = options.migrations ?? knownMigrations;
  const log = options.log;
  return db.connection().execute(async (conn) => {
    const schema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(conn)).rows[0]
      ?.schema;
    if (!schema) {
      throw new MigrationFailedError(
        'The database connection has no current schema: the schema named in search_path must exist.',
      );
    }
    const lockKey = sql`${sql.lit(lockClass)}::int, hashtext(${schema})`;
    const tried = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${lockKey}) as locked`.execute(conn);
    if (!tried.rows[0]?.locked) {
      log?.info('another instance is migrating the database; waiting for it');
      await sql`select pg_advisory_lock(${lockKey})`.execute(conn);
    }
    try {
      await refuseNewerDatabase(conn, schema, all);
      const migrator = new Migrator({
        db: conn,
        provider: { getMigrations: async () => all },
        // Explicit, so another schema's `kysely_migration` table is never taken for ours.
        migrationTableSchema: schema,
      });
      const { error, results = [] } = await migrator.migrateToLatest();
      if (error) {
        const failed = results.find((result) => result.status === 'Error')?.migrationName;
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever was thrown, as text
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationFailedError(
          failed ? `Migration ${failed} failed: ${reason}` : `Migrating failed: ${reason}`,
          {
            cause: error,
          },
        );
      }
      const applied = results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
      if (applied.length > 0) log?.info(`applied migrations: ${applied.join(', ')}`);
      return { applied };
    } finally {
      await sql`select pg_advisory_unlock(${lockKey})`.execute(conn);
    }
  });
}

async function refuseNewerDatabase(conn: Kysely<any>, schema: string, all: Record<string, Migration>): Promise<void> {
  const exists = await sql<{
    table: string | null;
  }>`select to_regclass(format('%I.%I', ${schema}::text, ${migrationTable}::text))::text as table`.execute(conn);
  if (!exists.rows[0]?.table) return;
  const executed = await conn.withSchema(schema).selectFrom(migrationTable).select('name').execute();
  const unknown = executed.map((row: { name: string }) => row.name).filter((name) => !Object.hasOwn(all, name));
  if (unknown.length > 0) throw new DatabaseNewerThanCodeError(unknown.sort());
}

/** Oldest first. */
export async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom(migrationTable).select('name').orderBy('name').execute();
  return rows.map((row: { name: string }) => row.name);
}
