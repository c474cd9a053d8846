import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

/** Keys each limit counts exactly in memory; past them, approximately (decision 0045). */
export const memoryKeys = 10_000;

/** Every rate limit of the service (plugins/external/rate-limits.ts applies them). */
export interface RateLimitSettings {
  registerPerIp: RateLimitRule;
  loginPerIp: RateLimitRule;
  /** That address waits, nobody else. */
  loginFailuresPerAccountAndAddress: RateLimitRule;
  /** Whatever the accounts (credential stuffing). */
  loginFailuresPerAddress: RateLimitRule;
  /** From every address: past it, only addresses the account logged in from before may try. */
  loginFailuresPerAccount: RateLimitRule;
  /** How long an address the owner proved (a login, a password change or reset) stays known. */
  knownLoginAddressMs: number;
  passwordResetPerIp: RateLimitRule;
  /** Known address or not, so it reveals nothing: past it the answer is still 202, with no email. */
  passwordResetEmailsPerAddress: RateLimitRule;
  linkUsePerIp: RateLimitRule;
  accountEmailsPerUser: RateLimitRule;
  playVerifyPerIp: RateLimitRule;
  /** Only requests that reach the upstream icon API count. */
  iconUpstreamPerIp: RateLimitRule;
}

const minute = 60_000;

/** The per-address login and registration limits are configured; the others are fixed here. */
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
