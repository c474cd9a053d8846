import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { migrations as knownMigrations } from './migrations.ts';

/** Kysely's bookkeeping table, kept in the connection's current schema. */
const migrationTable = 'kysely_migration';

// First half of the two-key advisory lock ('asda'); the second half is the schema's hash, so
// databases that keep several copies of the app in separate schemas do not wait on each other.
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
  /** Defaults to the app's migrations (lib/db/migrations.ts); tests pass their own. */
  migrations?: Record<string, Migration>;
  log?: MigrationLog;
}

export interface MigrateResult {
  /** Names of the migrations this call applied (empty when the database was up to date). */
  applied: string[];
}

/**
 * Brings the database up to date. Safe when several replicas start at once: everything runs on
 * one dedicated connection holding a session-level `pg_advisory_lock`, so the others wait, then
 * find nothing left to do. Refuses a database that has migrations this code does not know.
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrateResult> {
  const all = options.migrations ?? knownMigrations;
  const log = options.log;
  return db.connection().execute(async (conn) => {
    const schema = (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(conn)).rows[0]?.schema;
    if (!schema) {
      throw new MigrationFailedError('The database connection has no current schema: the schema named in search_path must exist.');
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
        // Explicit, so a `kysely_migration` table in another schema of the same database is never mistaken for ours.
        migrationTableSchema: schema,
      });
      const { error, results = [] } = await migrator.migrateToLatest();
      if (error) {
        const failed = results.find((result) => result.status === 'Error')?.migrationName;
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationFailedError(failed ? `Migration ${failed} failed: ${reason}` : `Migrating failed: ${reason}`, {
          cause: error,
        });
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
  const exists = await sql<{ table: string | null }>`select to_regclass(format('%I.%I', ${schema}::text, ${migrationTable}::text))::text as table`.execute(conn);
  if (!exists.rows[0]?.table) return;
  const executed = await conn.withSchema(schema).selectFrom(migrationTable).select('name').execute();
  const unknown = executed.map((row: { name: string }) => row.name).filter((name) => !Object.hasOwn(all, name));
  if (unknown.length > 0) throw new DatabaseNewerThanCodeError(unknown.sort());
}

/** Names of the migrations recorded in the database, oldest first (for diagnostics and tests). */
export async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom(migrationTable).select('name').orderBy('name').execute();
  return rows.map((row: { name: string }) => row.name);
}
