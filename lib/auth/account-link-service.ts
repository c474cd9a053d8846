import type { Kysely } from 'kysely';
import type { Database } from '../db/types.ts';
import type { AccountService } from './accounts.ts';
import type { AccountTokenPurpose, AccountTokens, TokenCheck } from './account-tokens.ts';

export interface AccountLinkDependencies {
  db: Kysely<Database>;
  accounts: AccountService;
  tokens: AccountTokens;
}

/** A service of emailed links (password reset, address verification, email change), free of HTTP. */
export abstract class AccountLinkService {
  protected readonly db: Kysely<Database>;
  protected readonly accounts: AccountService;
  protected readonly tokens: AccountTokens;
  readonly ttlMs: number;

  constructor(options: AccountLinkDependencies & { ttlMs?: number }, defaultTtlMs: number) {
    this.db = options.db;
    this.accounts = options.accounts;
    this.tokens = options.tokens;
    this.ttlMs = options.ttlMs ?? defaultTtlMs;
  }

  /** Checks a link without using it; a link sent to an address the account no longer has is void. */
  protected async checkForCurrentAddress(token: unknown, purpose: AccountTokenPurpose): Promise<TokenCheck> {
    const checked = await this.tokens.check(token, purpose);
    if (!checked.ok) return checked;
    const user = await this.accounts.findUser(checked.row.user_id);
    return user && user.email === checked.row.email ? checked : { ok: false, problem: 'invalid' };
  }
}
