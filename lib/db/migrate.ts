/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on Kysely<any>: the schema as it was then */
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { isSqlite } from './dialect.ts';
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
  migrations?: Record<string, Migration>;
  log?: MigrationLog;
}

export interface MigrateResult {
  applied: string[];
}

/**
 * Brings the database up to date, refusing unknown migrations. PostgreSQL: under an advisory lock,
 * so replicas wait their turn (0001); SQLite: one transaction, so a failure leaves the file as it was.
 */
export async function migrateToLatest(db: Kysely<any>, options: MigrateOptions = {}): Promise<MigrateResult> {
  const all = options.migrations ?? knownMigrations;
  return db.connection().execute(async (conn) => {
    if (isSqlite(conn)) {
      await sql`begin immediate`.execute(conn);
      try {
        const result = await migrate(conn, undefined, all, options.log);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn);
        throw error;
      }
    }
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
      options.log?.info('another instance is migrating the database; waiting for it');
      await sql`select pg_advisory_lock(${lockKey})`.execute(conn);
    }
    try {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await migrate(conn, schema, all, options.log);
        } catch (error) {
          if (attempt >= 3 || !isOtherSchemaDropped(error, schema)) throw error;
        }
      }
    } finally {
      await sql`select pg_advisory_unlock(${lockKey})`.execute(conn);
    }
  });
}

/** Kysely reads every schema's catalogue: one dropped meanwhile fails it (3F000) before anything is applied. */
function isOtherSchemaDropped(error: unknown, schema: string): boolean {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  return (
    error instanceof MigrationFailedError &&
    cause?.code === '3F000' &&
    typeof cause.message === 'string' &&
    !cause.message.includes(`"${schema}"`)
  );
}

/** `schema`: PostgreSQL's current schema; SQLite has none. */
async function migrate(
  conn: Kysely<any>,
  schema: string | undefined,
  all: Record<string, Migration>,
  log: MigrationLog | undefined,
): Promise<MigrateResult> {
  const executed = await refuseNewerDatabase(conn, schema, all);
  // Up to date, as on most starts: Kysely's Migrator would read the whole catalogue to find nothing to do.
  if (Object.keys(all).every((name) => executed.has(name))) return { applied: [] };
  const migrator = new Migrator({
    db: conn,
    provider: { getMigrations: async () => all },
    // Explicit, so another schema's `kysely_migration` table is never taken for ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- whatever was thrown, as text
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationFailedError(failed ? `Migration ${failed} failed: ${reason}` : `Migrating failed: ${reason}`, {
      cause: error,
    });
  }
  const applied = results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
  if (applied.length > 0) log?.info(`applied migrations: ${applied.join(', ')}`);
  return { applied };
}

/** The migrations the database has run. */
async function refuseNewerDatabase(
  conn: Kysely<any>,
  schema: string | undefined,
  all: Record<string, Migration>,
): Promise<Set<string>> {
  const exists = schema
    ? await sql<{
        table: string | null;
      }>`select to_regclass(format('%I.%I', ${schema}::text, ${migrationTable}::text))::text as table`.execute(conn)
    : await sql<{
        table: string | null;
      }>`select name as "table" from sqlite_master where type = 'table' and name = ${migrationTable}`.execute(conn);
  if (!exists.rows[0]?.table) return new Set();
  const table = schema ? conn.withSchema(schema) : conn;
  const executed = await table.selectFrom(migrationTable).select('name').execute();
  const names = executed.map((row: { name: string }) => row.name);
  const unknown = names.filter((name) => !Object.hasOwn(all, name));
  if (unknown.length > 0) throw new DatabaseNewerThanCodeError(unknown.sort());
  return new Set(names);
}

export async function executedMigrations(db: Kysely<any>): Promise<string[]> {
  const rows = await db.selectFrom(migrationTable).select('name').orderBy('name').execute();
  return rows.map((row: { name: string }) => row.name);
}
