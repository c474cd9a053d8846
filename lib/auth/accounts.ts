import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types.ts';
import type { PublicUser } from '../../contract/page-data.ts';
import type { PasswordHasher } from './passwords.ts';
import { hashSessionToken, isWellFormedToken, newSessionToken } from './tokens.ts';
import { storableUserAgent, toPublicUser, type UserColumns, userColumns } from './users.ts';
import { checkEmail, type Registration } from './validation.ts';
import { isStorageFull } from '../db/storage-full.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
  constructor() {
    super('An account with this email already exists.');
  }
}

export type LoginAccount = UserColumns & { password_hash: string };

export interface IssuedSession {
  user: PublicUser;
  /** Handed to the client once, never stored. */
  token: string;
  expiresAt: Date;
}

export interface ResolvedSession {
  user: PublicUser;
  sessionId: string;
  expiresAt: Date;
  /** The lookup slid the expiry forward: the cookie should follow. */
  extended: boolean;
}

export interface AccountServiceOptions {
  db: Kysely<Database>;
  hasher: PasswordHasher;
  sessionTtlMs: number;
  /** The expiry slides at most this often per session, so a busy session rarely writes. */
  touchIntervalMs: number;
  clock: () => Date;
}

/** Accounts and sessions, free of HTTP; the database keeps only the SHA-256 of session tokens. */
export class AccountService {
  readonly #db: Kysely<Database>;
  readonly #hasher: PasswordHasher;
  readonly #ttlMs: number;
  readonly #touchMs: number;
  readonly #clock: () => Date;
  #dummyHash: string | undefined;

  constructor(options: AccountServiceOptions) {
    this.#db = options.db;
    this.#hasher = options.hasher;
    this.#ttlMs = options.sessionTtlMs;
    this.#touchMs = options.touchIntervalMs;
    this.#clock = options.clock;
  }

  /** Prepares the hash that unknown emails are verified against, so they cost what a known one does. */
  async init(): Promise<void> {
    this.#dummyHash = await this.#hasher.hash(randomBytes(24).toString('base64url'));
  }

  get sessionTtlMs(): number {
    return this.#ttlMs;
  }

  get hasher(): PasswordHasher {
    return this.#hasher;
  }

  get clock(): () => Date {
    return this.#clock;
  }

  async findUser(userId: string): Promise<UserColumns | null> {
    return (
      (await this.#db
        .selectFrom('users')
        .select([...userColumns])
        .where('id', '=', userId)
        .executeTakeFirst()) ?? null
    );
  }

  async findUserByEmail(email: string): Promise<UserColumns | null> {
    return (
      (await this.#db
        .selectFrom('users')
        .select([...userColumns])
        .where('email', '=', email)
        .executeTakeFirst()) ?? null
    );
  }

  /** False for a wrong password or an account that no longer exists. */
  async checkPassword(userId: string, password: string): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    if (!row) return false;
    return this.#hasher.verify(row.password_hash, password);
  }

  /** Every live session but `keep` (the one making the change). Returns how many. */
  async revokeSessions(db: Kysely<Database>, userId: string, keep?: string): Promise<number> {
    let query = db
      .updateTable('sessions')
      .set({ revoked_at: this.#clock() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '!=', keep);
    const revoked = await query.returning('id').execute();
    return revoked.length;
  }

  /** The user and a first session, in one transaction. Throws EmailTakenError. */
  /** `alongside` runs in the registration's transaction (the address it came from, proved). */
  async register(
    registration: Registration,
    userAgent?: string,
    alongside?: (trx: Transaction<Database>, userId: string) => Promise<void>,
  ): Promise<IssuedSession> {
    const passwordHash = await this.#hasher.hash(registration.password);
    const now = this.#clock();
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('users')
          .values({
            id: randomUUID(),
            email: registration.email,
            password_hash: passwordHash,
            display_name: registration.displayName,
            locale: registration.locale,
            accepted_terms_at: now,
            age_confirmed_at: now,
            created_at: now,
          })
          .returning([...userColumns])
          .executeTakeFirstOrThrow();
        const session = await this.#insertSession(trx, user.id, now, userAgent);
        await alongside?.(trx, user.id);
        return { user: toPublicUser(user), ...session };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users', 'email')) throw new EmailTakenError();
      throw error;
    }
  }

  /** The account a login names, or undefined; an address registration would refuse is never queried. */
  async findLoginAccount(email: string): Promise<LoginAccount | undefined> {
    if (!('value' in checkEmail(email))) return undefined;
    return this.#db
      .selectFrom('users')
      .select([...userColumns, 'password_hash'])
      .where('email', '=', email)
      .executeTakeFirst();
  }

  /**
   * The user if `password` is the account's, or null. Verifies against a dummy hash when there is
   * no account, so both failures take about the same time. Rehashes outdated hashes.
   */
  async verifyCredentials(user: LoginAccount | undefined, password: string): Promise<UserColumns | null> {
    if (!this.#dummyHash) await this.init();
    const matches = await this.#hasher.verify(user?.password_hash ?? (this.#dummyHash as string), password);
    if (!user || !matches) return null;
    if (this.#hasher.needsRehash(user.password_hash)) {
      const rehashed = await this.#hasher.hash(password);
      await this.#db.updateTable('users').set({ password_hash: rehashed }).where('id', '=', user.id).execute();
    }
    return user;
  }

  async createSession(user: UserColumns, userAgent?: string): Promise<IssuedSession> {
    const now = this.#clock();
    // Sessions that can no longer be used are dropped as their owner logs in again.
    await this.#db
      .deleteFrom('sessions')
      .where('user_id', '=', user.id)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', 'is not', null)]))
      .execute();
    const session = await this.#insertSession(this.#db, user.id, now, userAgent);
    return { user: toPublicUser(user), ...session };
  }

  async #insertSession(
    db: Kysely<Database>,
    userId: string,
    now: Date,
    userAgent: string | undefined,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + this.#ttlMs);
    await db
      .insertInto('sessions')
      .values({
        id: randomUUID(),
        user_id: userId,
        token_hash: hashSessionToken(token),
        created_at: now,
        expires_at: expiresAt,
        last_seen_at: now,
        user_agent: storableUserAgent(userAgent),
      })
      .execute();
    return { token, expiresAt };
  }

  /** The live session behind a token; slides its expiry at most once per touch interval. */
  async resolve(token: string | null | undefined): Promise<ResolvedSession | null> {
    if (!isWellFormedToken(token)) return null;
    const now = this.#clock();
    const row = await this.#db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        's.id as session_id',
        's.expires_at',
        's.last_seen_at',
        'u.id',
        'u.email',
        'u.display_name',
        'u.locale',
        'u.created_at',
        'u.email_verified_at',
      ])
      .where('s.token_hash', '=', hashSessionToken(token))
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;

    let expiresAt = new Date(row.expires_at);
    let extended = false;
    const lastSeen = new Date(row.last_seen_at).getTime();
    if (now.getTime() - lastSeen >= this.#touchMs) {
      const slid = new Date(now.getTime() + this.#ttlMs);
      // A full disk keeps the expiry where it was rather than turn a visitor's read into a 503.
      const updated = await this.#db
        .updateTable('sessions')
        .set({ last_seen_at: now, expires_at: slid })
        .where('id', '=', row.session_id)
        .where('revoked_at', 'is', null)
        .where('last_seen_at', '<=', new Date(now.getTime() - this.#touchMs))
        .returning('id')
        .executeTakeFirst()
        .catch((error: unknown) => {
          if (isStorageFull(error)) return undefined;
          throw error;
        });
      if (updated) {
        expiresAt = slid;
        extended = true;
      }
    }
    return { user: toPublicUser(row), sessionId: row.session_id, expiresAt, extended };
  }

  /** Every replica sees it at its next lookup. */
  async revoke(token: string | null | undefined): Promise<boolean> {
    if (!isWellFormedToken(token)) return false;
    const revoked = await this.#db
      .updateTable('sessions')
      .set({ revoked_at: this.#clock() })
      .where('token_hash', '=', hashSessionToken(token))
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return Boolean(revoked);
  }

  /** Sessions expired, or revoked more than a day ago. */
  async sweep(): Promise<number> {
    const now = this.#clock();
    const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    const deleted = await this.#db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('revoked_at', '<=', dayAgo)]))
      .returning('id')
      .execute();
    return deleted.length;
  }
}
