import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Locale } from '../../contract/locales.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: string;
  /** Normalized (lib/auth/validation.ts). Unique. */
  email: string;
  /** argon2id PHC string. */
  password_hash: string;
  display_name: string;
  locale: Locale;
  accepted_terms_at: Timestamp;
  age_confirmed_at: Timestamp;
  created_at: GeneratedTimestamp;
  /** When the current address was proven by a link sent to it. */
  email_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** Hex SHA-256; the token itself is never stored. */
  token_hash: string;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  user_agent: string | null;
  revoked_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A single row, written to learn whether the database can write (plugins/external/database.ts). */
export interface StorageProbeTable {
  id: number;
  written_at: Timestamp;
}

/** Every table the code queries. Features declare their own tables by augmenting it (lib/play/tables.ts). */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  storage_probe: StorageProbeTable;
}

export type UserRow = Selectable<UsersTable>;

export type { Generated };
