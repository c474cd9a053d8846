import { AccountLinkService, type AccountLinkDependencies } from './account-link-service.ts';
import type { UserColumns } from './users.ts';
import type { TokenCheck } from './account-tokens.ts';

/** A verification link works once, for 24 hours (a resend makes a new one). */
const emailVerificationTtlMs = 24 * 60 * 60 * 1000;

/** Proving an address: a link sent to it at registration and on request. */
export class EmailVerifications extends AccountLinkService {
  constructor(options: AccountLinkDependencies & { ttlMs?: number }) {
    super(options, emailVerificationTtlMs);
  }

  /** A new link for the account's current address (earlier unused ones keep working until they expire). */
  async issue(user: Pick<UserColumns, 'id' | 'email'>): Promise<string> {
    const { token } = await this.tokens.issue(this.db, {
      userId: user.id,
      purpose: 'email_verification',
      email: user.email,
      ttlMs: this.ttlMs,
    });
    return token;
  }

  check(token: unknown): Promise<TokenCheck> {
    return this.checkForCurrentAddress(token, 'email_verification');
  }

  /** Uses the link (once) and marks the address verified. */
  async verify(token: unknown): Promise<TokenCheck> {
    const checked = await this.check(token);
    if (!checked.ok) return checked;
    return this.db.transaction().execute(async (trx) => {
      const used = await this.tokens.consume(trx, token, 'email_verification');
      if (!used.ok) return used;
      const now = this.accounts.clock();
      const updated = await trx
        .updateTable('users')
        .set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)) }))
        .where('id', '=', used.row.user_id)
        .where('email', '=', used.row.email)
        .returning('id')
        .executeTakeFirst();
      if (!updated) return { ok: false, problem: 'invalid' } as const;
      await this.tokens.retire(trx, used.row.user_id, ['email_verification']);
      return used;
    });
  }
}
