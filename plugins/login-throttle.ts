import type { FastifyRequest } from 'fastify';
import { limitKey } from '../lib/rate-limit/settings.ts';
import type { RateLimits } from './rate-limits.ts';

/** The password checks of one account from one client: checked before, told after. */
export interface LoginThrottle {
  check(): Promise<void>;
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

/**
 * Wrong passwords slow down the client that types them, never lock the owner out (decision 0026):
 * per account and address, per address, and per account for addresses it never logged in from.
 * The account's key hashes the email with its password hash, so a reset or a password change
 * starts afresh and the store holds nothing it could reveal.
 */
export function loginThrottles(rateLimits: RateLimits) {
  const { settings } = rateLimits;
  const perAccountAndAddress = rateLimits.failures('login-account-ip', settings.loginFailuresPerAccountAndAddress);
  const perAddress = rateLimits.failures('login-failures-ip', settings.loginFailuresPerAddress);
  const perAccount = rateLimits.failures('login-account', settings.loginFailuresPerAccount);
  const knownAddresses = rateLimits.marks('login-known-ip', settings.knownLoginAddressMs);

  /** `passwordHash`: the account's, or undefined when no account uses `email`. */
  return function throttle(request: FastifyRequest, email: string, passwordHash: string | undefined): LoginThrottle {
    const account = limitKey(`${email}\n${passwordHash ?? ''}`);
    const address = rateLimits.addressOf(request);
    const pair = `${account}:${address}`;
    const countsAddress = !rateLimits.allowListed(request);
    return {
      async check() {
        await perAccountAndAddress.check(request, pair);
        if (countsAddress) await perAddress.check(request, address);
        if (!(await knownAddresses.has(request, pair))) await perAccount.check(request, account);
      },
      async failed() {
        await Promise.all([
          perAccountAndAddress.fail(request, pair),
          countsAddress ? perAddress.fail(request, address) : undefined,
          perAccount.fail(request, account),
        ]);
      },
      async succeeded() {
        await knownAddresses.mark(request, pair);
      },
    };
  };
}
