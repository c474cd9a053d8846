import type { ColumnType } from 'kysely';
import type { Locale } from '../../contract/locales.ts';
import type { SelfExclusionPeriod } from '../../contract/play.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** One press of Play. */
export interface PlaySessionsTable {
  id: string;
  /** Null once the player deleted the account: the session stays, anonymised. */
  user_id: string | null;
  started_at: Timestamp;
  locale: Locale;
  user_agent: string | null;
}

export interface LaunchTokensTable {
  jti: string;
  user_id: string;
  play_session_id: string;
  expires_at: Timestamp;
  /** Set once, by the first successful verification. */
  used_at: NullableTimestamp;
}

/** Rows are only ever added: the active break is the latest end in the future. */
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
