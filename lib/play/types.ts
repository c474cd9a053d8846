import type { ColumnType, Selectable } from 'kysely';
import type { Locale } from '../locales.ts';

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

export type PlaySessionRow = Selectable<PlaySessionsTable>;

export const selfExclusionPeriods = ['24h', '7d', '30d', '6m'] as const;
export type SelfExclusionPeriod = (typeof selfExclusionPeriods)[number];

export function isSelfExclusionPeriod(value: unknown): value is SelfExclusionPeriod {
  return typeof value === 'string' && (selfExclusionPeriods as readonly string[]).includes(value);
}

/** A play session as the API and the account page show it. */
export interface PlaySessionView {
  id: string;
  startedAt: string;
  locale: Locale;
  userAgent: string | null;
}

/** The current self-exclusion break, if any. */
export interface SelfExclusionView {
  /** When the break ends (ISO); Play is refused until then. */
  until: string;
  /** The period of the break that ends last. */
  period: SelfExclusionPeriod;
  startsAt: string;
}

/** `GET /api/account` and the `/account` page's data. */
export interface AccountOverview {
  playSessions: PlaySessionView[];
  selfExclusion: SelfExclusionView | null;
}

/** The `/account` page's data: the overview, each play session's device named in the page's language. */
export interface AccountPageData extends AccountOverview {
  playSessions: (PlaySessionView & { device: string })[];
}

/** What `POST /api/play/verify` answers for a good token. */
export interface VerifiedLaunch {
  valid: true;
  user: { id: string; displayName: string };
  session: { id: string; startedAt: string; locale: Locale };
}

/** The `/play` page's data: the player's latest play sessions (`/play?session=<id>` shows one). */
export interface PlayPageData {
  playSessions: { id: string; startedAt: string }[];
}

/**
 * Why the own `/play` page could not use a launch token (`/play?problem=<reason>`), with the
 * code `POST /api/play/verify` answers for it.
 */
export const launchProblemCodes = {
  invalid: 'LAUNCH_TOKEN_INVALID',
  unknown: 'LAUNCH_TOKEN_UNKNOWN',
  used: 'LAUNCH_TOKEN_USED',
  expired: 'LAUNCH_TOKEN_EXPIRED',
  foreign: 'LAUNCH_TOKEN_FORBIDDEN',
} as const;
export type LaunchProblem = keyof typeof launchProblemCodes;
