import { type ColumnDataType, type Kysely, type RawBuilder, sql, SqliteAdapter } from 'kysely';

/** The embedded database (SQLite) rather than PostgreSQL. */
export function isSqlite<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

export interface ColumnTypes {
  uuid: ColumnDataType;
  timestamp: ColumnDataType;
  /** The current time, as a column default. */
  now: RawBuilder<unknown>;
  /** A text's length in characters. */
  length: (column: string) => RawBuilder<unknown>;
}

/** What the two engines spell differently in a schema (SQLite's times: lib/db/sqlite-values.ts). */
export function columnTypes(db: Kysely<unknown>): ColumnTypes {
  return isSqlite(db)
    ? {
        uuid: 'text',
        timestamp: 'text',
        now: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
        length: (column) => sql`length(${sql.ref(column)})`,
      }
    : {
        uuid: 'uuid',
        timestamp: 'timestamptz',
        now: sql`now()`,
        length: (column) => sql`char_length(${sql.ref(column)})`,
      };
}
