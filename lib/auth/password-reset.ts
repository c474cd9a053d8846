import type { IssuedSession } from './accounts.ts';
import { AccountLinkService, type AccountLinkDependencies } from './account-link-service.ts';
import type { UserColumns } from './users.ts';
import type { TokenCheck, TokenProblem } from './account-tokens.ts';
import { checkNewPassword, type FieldErrors } from './validation.ts';

/** A reset link works once, for 30 minutes. */
const passwordResetTtlMs = 30 * 60 * 1000;

export type ResetResult =
  { ok: true; session: IssuedSession } | { ok: false; problem: TokenProblem } | { ok: false; fields: FieldErrors };

/** Forgotten passwords: a link for a known address, nothing for another (run off the request). */
export class PasswordResets extends AccountLinkService {
  constructor(options: AccountLinkDependencies & { ttlMs?: number }) {
    super(options, passwordResetTtlMs);
  }

  /** Null when no account uses this (normalized) address. */
  async issue(email: string): Promise<{ user: UserColumns; token: string } | null> {
    const user = await this.accounts.findUserByEmail(email);
    if (!user) return null;
    const { token } = await this.tokens.issue(this.db, {
      userId: user.id,
      purpose: 'password_reset',
      email: user.email,
      ttlMs: this.ttlMs,
    });
    return { user, token };
  }

  check(token: unknown): Promise<TokenCheck> {
    return this.checkForCurrentAddress(token, 'password_reset');
  }

  /**
   * Sets the new password (a refused one leaves the link usable), ends every session, marks the
   * address verified (the link proved it), and logs in.
   */
  async reset(token: unknown, password: unknown, userAgent: string | undefined): Promise<ResetResult> {
    const checked = await this.check(token);
    if (!checked.ok) return checked;
    const user = (await this.accounts.findUser(checked.row.user_id))!;
    const problem = checkNewPassword(password, user.email);
    if (problem) return { ok: false, fields: { password: problem } };
    const passwordHash = await this.accounts.hasher.hash(password as string);

    const used = await this.db.transaction().execute(async (trx) => {
      const consumed = await this.tokens.consume(trx, token, 'password_reset');
      if (!consumed.ok) return consumed;
      const now = this.accounts.clock();
      await trx
        .updateTable('users')
        .set((eb) => ({
          password_hash: passwordHash,
          email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(now)),
        }))
        .where('id', '=', user.id)
        .execute();
      await this.tokens.retire(trx, user.id, ['password_reset']);
      await this.accounts.revokeSessions(trx, user.id);
      return consumed;
    });
    if (!used.ok) return used;
    const session = await this.accounts.createSession(
      { ...user, email_verified_at: user.email_verified_at ?? this.accounts.clock() },
      userAgent,
    );
    return { ok: true, session };
  }
}
