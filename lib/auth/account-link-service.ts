import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { AccountService } from './accounts.ts';
import type { AccountTokenPurpose, AccountTokens, TokenCheck } from './account-tokens.ts';

/** What a service of emailed links is built with (plugins/account-links.ts has one for every service). */
export interface AccountLinkDependencies {
  db: Kysely<Database>;
  accounts: AccountService;
  tokens: AccountTokens;
}

/**
 * A service of emailed links (password reset, address verification, email change), free of
 * HTTP: the database, the accounts, the links' tokens, and how long its links work.
 */
export abstract class AccountLinkService {
  protected readonly db: Kysely<Database>;
  protected readonly accounts: AccountService;
  protected readonly tokens: AccountTokens;
  /** How long a link of this service works. */
  readonly ttlMs: number;

  /** `options.ttlMs`: how long its links work, when not `defaultTtlMs`. */
  constructor(options: AccountLinkDependencies & { ttlMs?: number }, defaultTtlMs: number) {
    this.db = options.db;
    this.accounts = options.accounts;
    this.tokens = options.tokens;
    this.ttlMs = options.ttlMs ?? defaultTtlMs;
  }

  /**
   * Checks a link that proves the account's address, without using it: a link sent to an
   * address the account no longer has is void.
   */
  protected async checkForCurrentAddress(token: unknown, purpose: AccountTokenPurpose): Promise<TokenCheck> {
    const checked = await this.tokens.check(token, purpose);
    if (!checked.ok) return checked;
    const user = await this.accounts.findUser(checked.row.user_id);
    return user && user.email === checked.row.email ? checked : { ok: false, problem: 'invalid' };
  }
}
