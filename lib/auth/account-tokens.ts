import { randomUUID } from 'node:crypto';
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../db/types.ts';
import { hashSessionToken, isWellFormedToken, newSessionToken } from './tokens.ts';

export type AccountTokenPurpose = 'password_reset' | 'email_verification' | 'email_change';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccountTokensTable {
  id: string;
  user_id: string;
  purpose: AccountTokenPurpose;
  /** Hex SHA-256 of the token in the link, which is never kept. */
  token_hash: string;
  /** The address the link was sent to (for an email change: the new address). */
  email: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** Set once, by the use that wins. */
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

declare module '../db/types.ts' {
  interface Database {
    account_tokens: AccountTokensTable;
  }
}

export type AccountTokenRow = Selectable<AccountTokensTable>;

/** Why a link cannot be used: never issued or altered, already used, or too old. */
export type TokenProblem = 'invalid' | 'used' | 'expired';

export type TokenCheck = { ok: true; row: AccountTokenRow } | { ok: false; problem: TokenProblem };

/** Single-use links: a random token in the URL, its hash in the database, an expiry. */
export class AccountTokens {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;

  constructor(db: Kysely<Database>, clock: () => Date) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The only time the token exists in clear. */
  async issue(
    db: Kysely<Database>,
    input: { userId: string; purpose: AccountTokenPurpose; email: string; ttlMs: number },
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = newSessionToken();
    const now = this.#clock();
    const expiresAt = new Date(now.getTime() + input.ttlMs);
    await db
      .insertInto('account_tokens')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        purpose: input.purpose,
        token_hash: hashSessionToken(token),
        email: input.email,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return { token, expiresAt };
  }

  /** Without using the link: what the page shows before the visitor acts. */
  async check(token: unknown, purpose: AccountTokenPurpose, db: Kysely<Database> = this.#db): Promise<TokenCheck> {
    if (!isWellFormedToken(token)) return { ok: false, problem: 'invalid' };
    const row = await db
      .selectFrom('account_tokens')
      .selectAll()
      .where('token_hash', '=', hashSessionToken(token))
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    return classify(row, this.#clock());
  }

  /** Uses a link (of simultaneous uses one gets the row), inside the transaction it is for. */
  async consume(db: Kysely<Database>, token: unknown, purpose: AccountTokenPurpose): Promise<TokenCheck> {
    if (!isWellFormedToken(token)) return { ok: false, problem: 'invalid' };
    const now = this.#clock();
    const row = await db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashSessionToken(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    if (row) return { ok: true, row };
    return this.check(token, purpose, db).then((check) => (check.ok ? { ok: false, problem: 'used' } : check));
  }

  async retire(db: Kysely<Database>, userId: string, purposes: AccountTokenPurpose[]): Promise<void> {
    await db
      .updateTable('account_tokens')
      .set({ used_at: this.#clock() })
      .where('user_id', '=', userId)
      .where('purpose', 'in', purposes)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Links expired more than a day ago. */
  async sweep(): Promise<number> {
    const cutoff = new Date(this.#clock().getTime() - 24 * 60 * 60 * 1000);
    const deleted = await this.#db
      .deleteFrom('account_tokens')
      .where('expires_at', '<', cutoff)
      .returning('id')
      .execute();
    return deleted.length;
  }
}

function classify(row: AccountTokenRow | undefined, now: Date): TokenCheck {
  if (!row) return { ok: false, problem: 'invalid' };
  if (row.used_at) return { ok: false, problem: 'used' };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, problem: 'expired' };
  return { ok: true, row };
}
