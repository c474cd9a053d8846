import type { FastifyRequest } from 'fastify';
import { limitKey } from '../lib/rate-limit/settings.ts';
import type { RateLimits } from './rate-limits.ts';

/** The password checks of one account from one client: checked before, told after. */
export interface LoginThrottle {
  /** Throws HttpError 429 RATE_LIMITED while this client may not try this account's password. */
  check(): Promise<void>;
  failed(): Promise<void>;
  succeeded(): Promise<void>;
}

/**
 * Wrong passwords slow down the client that types them, never lock the owner out (OWASP's
 * authentication guidance; docs/security.md has the numbers):
 * - per account and address: that address waits, the owner elsewhere logs in;
 * - per address, whatever the account: credential stuffing from one address stops;
 * - per account from every address (a guesser with many addresses): past it, only addresses the
 *   account logged in from before may try, so its owner at home still can.
 * The account's key includes its password hash: a completed reset or password change (the
 * mailbox or the password proven) starts every count of the account afresh. Emails are hashed,
 * so the rate-limit store never holds an address or a hash it could reveal.
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
