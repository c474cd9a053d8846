import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

/** Every rate limit of the service (plugins/rate-limits.ts applies them). */
export interface RateLimitSettings {
  /** Registrations per client address (REGISTER_RATE_LIMIT_PER_MINUTE). */
  registerPerIp: RateLimitRule;
  /** Login attempts per client address (LOGIN_RATE_LIMIT_PER_MINUTE). */
  loginPerIp: RateLimitRule;
  /** Failed logins to one account from one client address: that address waits, nobody else. */
  loginFailuresPerAccountAndAddress: RateLimitRule;
  /** Failed logins from one client address, whatever the accounts (credential stuffing). */
  loginFailuresPerAddress: RateLimitRule;
  /**
   * Failed logins to one account from every address (a guesser with many addresses): past it,
   * only addresses the account logged in from before (`knownLoginAddressMs`) may try.
   */
  loginFailuresPerAccount: RateLimitRule;
  /** How long an address an account logged in from stays known to it. */
  knownLoginAddressMs: number;
  /** Password reset requests per client address. */
  passwordResetPerIp: RateLimitRule;
  /**
   * Reset emails per email address (known or not, so it reveals nothing): past it requests are
   * still answered 202, and no further email goes out until the window ends.
   */
  passwordResetEmailsPerAddress: RateLimitRule;
  /** Uses of emailed links (reset, verification, email change) per client address. */
  linkUsePerIp: RateLimitRule;
  /** Emails a logged-in user can have sent (verification resends, email change links). */
  accountEmailsPerUser: RateLimitRule;
  /** Launch-token verifications per client address (the play destination's server). */
  playVerifyPerIp: RateLimitRule;
  /** Icon requests per client address that make the server ask the upstream icon API (cache and installed sets are free). */
  iconUpstreamPerIp: RateLimitRule;
}

const minute = 60_000;

/**
 * The one place the limits are written: the per-address login and registration limits come from
 * the configuration (its defaults: 10 and 5 a minute), the others are fixed. Tests override any.
 */
export function rateLimitSettings(
  config: Pick<Config, 'loginRateLimitPerMinute' | 'registerRateLimitPerMinute'>,
  overrides: Partial<RateLimitSettings> = {},
): RateLimitSettings {
  return {
    registerPerIp: { max: config.registerRateLimitPerMinute, windowMs: minute },
    loginPerIp: { max: config.loginRateLimitPerMinute, windowMs: minute },
    loginFailuresPerAccountAndAddress: { max: 5, windowMs: 15 * minute },
    loginFailuresPerAddress: { max: 20, windowMs: 15 * minute },
    loginFailuresPerAccount: { max: 100, windowMs: 60 * minute },
    knownLoginAddressMs: 30 * 24 * 60 * minute,
    passwordResetPerIp: { max: 10, windowMs: 15 * minute },
    passwordResetEmailsPerAddress: { max: 3, windowMs: 60 * minute },
    linkUsePerIp: { max: 20, windowMs: 15 * minute },
    accountEmailsPerUser: { max: 3, windowMs: 15 * minute },
    playVerifyPerIp: { max: 120, windowMs: minute },
    iconUpstreamPerIp: { max: 20, windowMs: minute },
    ...overrides,
  };
}

/** A rate-limit key for personal data: the store never holds the value itself. */
export function limitKey(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}
