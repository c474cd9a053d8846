import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import { storableUserAgent } from '../auth/users.ts';
import type { Locale } from '../../contract/locales.ts';
import { checkLaunchToken, newLaunchPayload, signLaunchToken } from './launch-token.ts';
import { selfExclusionEnd } from './periods.ts';
import type {
  AccountOverview,
  PlaySessionView,
  SelfExclusionPeriod,
  SelfExclusionView,
  VerifiedLaunch,
} from '../../contract/play.ts';
// Play's tables in the database's type (a declaration merge).
import type {} from './tables.ts';

export interface PlayServiceOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** The HMAC key of launch tokens. */
  secret: string | Buffer;
  tokenTtlMs: number;
}

export type StartPlayResult =
  | { ok: true; token: string; playSessionId: string; startedAt: Date; expiresAt: Date }
  | { ok: false; selfExclusion: SelfExclusionView };

export type VerifyResult =
  { ok: true; launch: VerifiedLaunch } | { ok: false; reason: 'invalid' | 'expired' | 'unknown' | 'used' | 'foreign' };

export type SelfExcludeResult =
  { ok: true; selfExclusion: SelfExclusionView } | { ok: false; current: SelfExclusionView };

const recentPlaySessions = 20;

/** Play and its breaks (decision 0007). "Now" is always the injected clock, never the database's `now()`. */
export class PlayService {
  readonly #db: Kysely<Database>;
  readonly #now: () => Date;
  readonly #secret: string | Buffer;
  readonly #ttlMs: number;

  constructor(options: PlayServiceOptions) {
    this.#db = options.db;
    this.#now = options.now;
    this.#secret = options.secret;
    this.#ttlMs = options.tokenTtlMs;
  }

  get tokenTtlMs(): number {
    return this.#ttlMs;
  }

  /** The one ending last. */
  activeSelfExclusion(userId: string): Promise<SelfExclusionView | null> {
    return activeBreak(this.#db, userId, this.#now());
  }

  /** Refused during a break; otherwise records the play session and its launch token, in one transaction. */
  async startPlay(input: { userId: string; locale: Locale; userAgent?: string | undefined }): Promise<StartPlayResult> {
    const now = this.#now();
    return this.#db.transaction().execute(async (trx) => {
      const active = await activeBreak(trx, input.userId, now);
      if (active) return { ok: false, selfExclusion: active };
      const playSessionId = randomUUID();
      await trx
        .insertInto('play_sessions')
        .values({
          id: playSessionId,
          user_id: input.userId,
          started_at: now,
          locale: input.locale,
          user_agent: storableUserAgent(input.userAgent),
        })
        .execute();
      const payload = newLaunchPayload(input.userId, playSessionId, now, this.#ttlMs);
      const expiresAt = new Date(payload.exp * 1000);
      await trx
        .insertInto('launch_tokens')
        .values({ jti: payload.jti, user_id: input.userId, play_session_id: playSessionId, expires_at: expiresAt })
        .execute();
      return { ok: true, token: signLaunchToken(payload, this.#secret), playSessionId, startedAt: now, expiresAt };
    });
  }

  /**
   * Of simultaneous verifications exactly one succeeds. `foreign`: `player` is given and is not the
   * token's (nothing is spent); `unknown`: well signed, no such jti.
   */
  async verify(token: unknown, options: { player?: string } = {}): Promise<VerifyResult> {
    const now = this.#now();
    const check = checkLaunchToken(token, this.#secret, now);
    if (!check.ok) return { ok: false, reason: 'invalid' };
    if (check.expired) return { ok: false, reason: 'expired' };
    const { jti, sub, sid } = check.payload;
    // A player checking a token (the site's own /play page) may spend only their own.
    if (options.player !== undefined && options.player !== sub) return { ok: false, reason: 'foreign' };
    const used = await this.#db
      .updateTable('launch_tokens')
      .set({ used_at: now })
      .where('jti', '=', jti)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['user_id', 'play_session_id'])
      .executeTakeFirst();
    if (!used) {
      const known = await this.#db
        .selectFrom('launch_tokens')
        .select(['used_at'])
        .where('jti', '=', jti)
        .executeTakeFirst();
      if (!known) return { ok: false, reason: 'unknown' };
      return { ok: false, reason: known.used_at ? 'used' : 'expired' };
    }
    // Signed by us, so these match what we recorded; checked anyway rather than trusted.
    if (used.user_id !== sub || used.play_session_id !== sid) return { ok: false, reason: 'invalid' };
    const row = await this.#db
      .selectFrom('play_sessions as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .select(['u.id as user_id', 'u.display_name', 'p.id', 'p.started_at', 'p.locale'])
      .where('p.id', '=', sid)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'unknown' };
    return {
      ok: true,
      launch: {
        valid: true,
        user: { id: row.user_id, displayName: row.display_name },
        session: { id: row.id, startedAt: iso(row.started_at), locale: row.locale },
      },
    };
  }

  /** During a break only one ending later is accepted: rows are only added, the latest end wins. */
  async selfExclude(userId: string, period: SelfExclusionPeriod): Promise<SelfExcludeResult> {
    const now = this.#now();
    const until = selfExclusionEnd(period, now);
    const current = await activeBreak(this.#db, userId, now);
    if (current && until.getTime() <= Date.parse(current.until)) return { ok: false, current };
    await this.#db
      .insertInto('self_exclusions')
      .values({ id: randomUUID(), user_id: userId, starts_at: now, ends_at: until, period, created_at: now })
      .execute();
    return { ok: true, selfExclusion: { until: iso(until), period, startsAt: iso(now) } };
  }

  async overview(userId: string): Promise<AccountOverview> {
    const [playSessions, selfExclusion] = await Promise.all([
      this.recentSessions(userId),
      activeBreak(this.#db, userId, this.#now()),
    ]);
    return { playSessions, selfExclusion };
  }

  /** Newest first. */
  async recentSessions(userId: string): Promise<PlaySessionView[]> {
    const sessions = await this.#db
      .selectFrom('play_sessions')
      .select(['id', 'started_at', 'locale', 'user_agent'])
      .where('user_id', '=', userId)
      .orderBy('started_at', 'desc')
      .orderBy('id')
      .limit(recentPlaySessions)
      .execute();
    return sessions.map((row) => ({
      id: row.id,
      startedAt: iso(row.started_at),
      locale: row.locale,
      userAgent: row.user_agent,
    }));
  }

  /** Launch tokens expired more than an hour ago; their play sessions stay. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.#now().getTime() - 60 * 60 * 1000);
    const deleted = await this.#db
      .deleteFrom('launch_tokens')
      .where('expires_at', '<', cutoff)
      .returning('jti')
      .execute();
    return deleted.length;
  }
}

async function activeBreak(db: Kysely<Database>, userId: string, now: Date): Promise<SelfExclusionView | null> {
  const row = await db
    .selectFrom('self_exclusions')
    .select(['ends_at', 'period', 'starts_at'])
    .where('user_id', '=', userId)
    .where('ends_at', '>', now)
    .orderBy('ends_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { until: iso(row.ends_at), period: row.period, startsAt: iso(row.starts_at) } : null;
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
