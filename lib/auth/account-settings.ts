import { deviceName } from '../device-name.ts';
import type { Locale } from '../../contract/locales.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import { toPublicUser, userColumns } from './users.ts';
import type { TokenCheck } from './account-tokens.ts';
import { AccountLinkService, type AccountLinkDependencies } from './account-link-service.ts';
import type { SessionView } from '../../contract/account-view.ts';
import { checkDisplayName, checkEmail, checkNewPassword, type FieldErrors } from './validation.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/** An email change link works once, for 24 hours. */
const emailChangeTtlMs = 24 * 60 * 60 * 1000;

export type Changed<T> = { ok: true; value: T } | { ok: false; fields: FieldErrors; status?: number };

export type DeletionResult = { ok: true } | { ok: false; fields: FieldErrors } | { ok: false; onBreakUntil: string };

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Keeping an account, free of HTTP: details, sessions, deletion. Every change that needs the
 * password checks it here; the caller applies the per-account limit on wrong passwords.
 */
export class AccountSettings extends AccountLinkService {
  constructor(options: AccountLinkDependencies & { ttlMs?: number }) {
    super(options, emailChangeTtlMs);
  }

  /** Display name and preferred language, at least one of them. */
  async updateProfile(
    userId: string,
    input: { displayName?: unknown; locale?: unknown },
  ): Promise<Changed<PublicUser>> {
    const fields: FieldErrors = {};
    const set: { display_name?: string; locale?: Locale } = {};
    if (input.displayName !== undefined) {
      const name = checkDisplayName(input.displayName);
      if ('code' in name) fields.displayName = name.code;
      else set.display_name = name.value;
    }
    if (input.locale !== undefined) {
      if (input.locale === 'en' || input.locale === 'th') set.locale = input.locale;
      else fields.locale = input.locale === '' || input.locale === null ? 'required' : 'invalid_value';
    }
    if (input.displayName === undefined && input.locale === undefined) fields.displayName = 'required';
    if (Object.keys(fields).length > 0) return { ok: false, fields };
    const row = await this.db
      .updateTable('users')
      .set(set)
      .where('id', '=', userId)
      .returning([...userColumns])
      .executeTakeFirstOrThrow();
    return { ok: true, value: toPublicUser(row) };
  }

  /** A new password (the current one first); every other session of the account ends. */
  async changePassword(
    user: PublicUser,
    keepSessionId: string | null,
    currentPassword: unknown,
    newPassword: unknown,
  ): Promise<Changed<{ endedSessions: number }>> {
    const fields: FieldErrors = {};
    if (typeof currentPassword !== 'string' || currentPassword === '') fields.currentPassword = 'required';
    const problem = checkNewPassword(newPassword, user.email);
    if (problem) fields.newPassword = problem;
    if (Object.keys(fields).length > 0) return { ok: false, fields };
    if (!(await this.accounts.checkPassword(user.id, currentPassword as string))) {
      return { ok: false, fields: { currentPassword: 'incorrect_password' } };
    }
    const passwordHash = await this.accounts.hasher.hash(newPassword as string);
    const endedSessions = await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      // Reset links mailed before would undo this change.
      await this.tokens.retire(trx, user.id, ['password_reset']);
      return this.accounts.revokeSessions(trx, user.id, keepSessionId ?? undefined);
    });
    return { ok: true, value: { endedSessions } };
  }

  /** The account keeps its address until the link sent to the new one is used; earlier requests are withdrawn. */
  async requestEmailChange(
    user: PublicUser,
    currentPassword: unknown,
    rawEmail: unknown,
  ): Promise<Changed<{ email: string; token: string }>> {
    const fields: FieldErrors = {};
    if (typeof currentPassword !== 'string' || currentPassword === '') fields.currentPassword = 'required';
    const email = checkEmail(rawEmail);
    if ('code' in email) fields.newEmail = email.code;
    else if (email.value === user.email) fields.newEmail = 'same_as_current';
    if (Object.keys(fields).length > 0 || !('value' in email)) return { ok: false, fields };
    if (!(await this.accounts.checkPassword(user.id, currentPassword as string))) {
      return { ok: false, fields: { currentPassword: 'incorrect_password' } };
    }
    // Registration says so too (409 EMAIL_TAKEN), behind its own limits.
    if (await this.accounts.findUserByEmail(email.value))
      return { ok: false, fields: { newEmail: 'taken' }, status: 409 };
    const token = await this.db.transaction().execute(async (trx) => {
      await this.tokens.retire(trx, user.id, ['email_change']);
      return (
        await this.tokens.issue(trx, {
          userId: user.id,
          purpose: 'email_change',
          email: email.value,
          ttlMs: this.ttlMs,
        })
      ).token;
    });
    return { ok: true, value: { email: email.value, token } };
  }

  async pendingEmail(userId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('account_tokens')
      .select('email')
      .where('user_id', '=', userId)
      .where('purpose', '=', 'email_change')
      .where('used_at', 'is', null)
      .where('expires_at', '>', this.accounts.clock())
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.email ?? null;
  }

  checkEmailChange(token: unknown): Promise<TokenCheck> {
    return this.tokens.check(token, 'email_change');
  }

  /** Links sent to the old address stop working; it is returned, to be told. */
  async confirmEmailChange(
    token: unknown,
  ): Promise<
    { ok: true; user: PublicUser; oldEmail: string } | { ok: false; problem: 'invalid' | 'used' | 'expired' | 'taken' }
  > {
    const checked = await this.checkEmailChange(token);
    if (!checked.ok) return checked;
    try {
      return await this.db.transaction().execute(async (trx) => {
        const used = await this.tokens.consume(trx, token, 'email_change');
        if (!used.ok) return used;
        const before = await trx
          .selectFrom('users')
          .select('email')
          .where('id', '=', used.row.user_id)
          .executeTakeFirst();
        if (!before) return { ok: false, problem: 'invalid' } as const;
        const row = await trx
          .updateTable('users')
          .set({ email: used.row.email, email_verified_at: this.accounts.clock() })
          .where('id', '=', used.row.user_id)
          .returning([...userColumns])
          .executeTakeFirstOrThrow();
        await this.tokens.retire(trx, used.row.user_id, ['password_reset', 'email_verification', 'email_change']);
        return { ok: true, user: toPublicUser(row), oldEmail: before.email } as const;
      });
    } catch (error) {
      // Someone registered the address after the link was sent.
      if (isUniqueViolation(error, 'users', 'email')) return { ok: false, problem: 'taken' };
      throw error;
    }
  }

  /** Newest use first, the request's own marked. */
  async sessions(userId: string, currentSessionId: string | null, locale: Locale): Promise<SessionView[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'created_at', 'last_seen_at'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', this.accounts.clock())
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      device: deviceName(row.user_agent, locale),
      userAgent: row.user_agent,
      createdAt: iso(row.created_at),
      lastSeenAt: iso(row.last_seen_at),
      current: row.id === currentSessionId,
    }));
  }

  /** False when it is not one of the account's live sessions. */
  async endSession(userId: string, sessionId: string): Promise<boolean> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) return false;
    const ended = await this.db
      .updateTable('sessions')
      .set({ revoked_at: this.accounts.clock() })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return Boolean(ended);
  }

  endOtherSessions(userId: string, keepSessionId: string | null): Promise<number> {
    return this.accounts.revokeSessions(this.db, userId, keepSessionId ?? undefined);
  }

  /** Play sessions stay, anonymised. Refused during a break: registering again would end it (decision 0011). */
  async deleteAccount(userId: string, password: unknown): Promise<DeletionResult> {
    if (typeof password !== 'string' || password === '') return { ok: false, fields: { password: 'required' } };
    if (!(await this.accounts.checkPassword(userId, password)))
      return { ok: false, fields: { password: 'incorrect_password' } };
    const now = this.accounts.clock();
    return this.db.transaction().execute(async (trx) => {
      const onBreak = await trx
        .selectFrom('self_exclusions')
        .select('ends_at')
        .where('user_id', '=', userId)
        .where('ends_at', '>', now)
        .orderBy('ends_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (onBreak) return { ok: false, onBreakUntil: iso(onBreak.ends_at) } as const;
      await trx.updateTable('play_sessions').set({ user_agent: null }).where('user_id', '=', userId).execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
      return { ok: true } as const;
    });
  }
}
