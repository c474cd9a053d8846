import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Locale } from '../../contract/locales.ts';

/** A `timestamptz` column: read as a Date, written as a Date (or an ISO string). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A `timestamptz` column with a database default. */
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: string;
  /** Normalized (trimmed, NFC, lower-case, domain in ASCII): see lib/auth/validation.ts. Unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  display_name: string;
  locale: Locale;
  accepted_terms_at: Timestamp;
  age_confirmed_at: Timestamp;
  created_at: GeneratedTimestamp;
  /** When the current address was proven by a link sent to it (migration 0005); null: not yet. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** Hex SHA-256 of the opaque token; the token itself is never stored. Unique. */
  token_hash: string;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  user_agent: string | null;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/**
 * Every table the code queries. A feature that adds tables in a new migration (lib/db/migrations.ts)
 * can declare them next to its own code instead of editing this file:
 *
 *   declare module '../lib/db/types.ts' { interface Database { play_sessions: PlaySessionsTable } }
 */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}

export type UserRow = Selectable<UsersTable>;

/** Generated<> is re-exported for feature modules that declare their own tables. */
export type { Generated };
