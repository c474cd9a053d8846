import type { ColumnType } from 'kysely';
import type { Locale } from '../../contract/locales.ts';
import type { SelfExclusionPeriod } from '../../contract/play.ts';

/** Play's database tables (the shapes the API and pages show are in the shared contract). */

/** A `timestamptz` column: read as a Date, written as a Date (or an ISO string). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One press of Play by a logged-in player (migration 0002_play_sessions). */
export interface PlaySessionsTable {
  id: string;
  /** Null once the player deleted the account (migration 0006): the session stays, anonymised. */
  user_id: string | null;
  started_at: Timestamp;
  locale: Locale;
  user_agent: string | null;
}

/** A launch token handed to the play destination: its id, whose it is, and whether it was used (0003). */
export interface LaunchTokensTable {
  jti: string;
  user_id: string;
  play_session_id: string;
  expires_at: Timestamp;
  /** Set once, by the first successful verification (`UPDATE ... WHERE used_at IS NULL`). */
  used_at: NullableTimestamp;
}

/** A self-exclusion break (0004). Rows are only ever added: the active break is the latest end in the future. */
export interface SelfExclusionsTable {
  id: string;
  user_id: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  period: SelfExclusionPeriod;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

declare module '../db/types.ts' {
  interface Database {
    play_sessions: PlaySessionsTable;
    launch_tokens: LaunchTokensTable;
    self_exclusions: SelfExclusionsTable;
  }
}
