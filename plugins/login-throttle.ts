import type { FastifyRequest } from 'fastify';
import type { KnownAddresses } from '../lib/auth/known-addresses.ts';
import { limitKey } from '../lib/rate-limit/settings.ts';
import type { RateLimits, Refund } from './rate-limits.ts';

/** The password checks of one account from one client. */
export interface LoginThrottle {
  /**
   * Runs one password check as a counted attempt: counted before it runs (429 past a limit, and
   * `check` does not run), taken back unless `failed(result)`. When `proved(result)` (by default
   * whenever it did not fail) this address becomes one the owner used.
   */
  attempt<T>(check: () => Promise<T>, outcome: AttemptOutcome<T>): Promise<T>;
}

export interface AttemptOutcome<T> {
  /** A wrong password: the attempt stays counted. */
  failed: (result: T) => boolean;
  /** The owner proved the password and what they asked for was done. */
  proved?: (result: T) => boolean;
}

/** The account a password is checked against, or undefined when no account uses the email. */
export interface ThrottledAccount {
  id: string;
  password_hash: string;
}

/**
 * Wrong passwords slow down the client that types them, never lock the owner out (decisions 0026,
 * 0036): per account and address, per address, and per account for addresses its owner never
 * proved. The failure counters' account key hashes the email with the password hash, so a reset or
 * a password change starts the strangers' counts afresh; the owner's addresses are kept by account.
 */
export function loginThrottles(rateLimits: RateLimits, known: KnownAddresses) {
  const { settings } = rateLimits;
  const perAccountAndAddress = rateLimits.failures('login-account-ip', settings.loginFailuresPerAccountAndAddress);
  const perAddress = rateLimits.failures('login-failures-ip', settings.loginFailuresPerAddress);
  const perAccount = rateLimits.failures('login-account', settings.loginFailuresPerAccount);

  return function throttle(
    request: FastifyRequest,
    email: string,
    account: ThrottledAccount | undefined,
  ): LoginThrottle {
    const accountKey = limitKey(`${email}\n${account?.password_hash ?? ''}`);
    const address = rateLimits.addressOf(request);
    const countsAddress = !rateLimits.allowListed(request);

    async function reserve(): Promise<Refund[]> {
      const refunds: Refund[] = [];
      try {
        refunds.push(await perAccountAndAddress.reserve(request, `${accountKey}:${address}`));
        if (countsAddress) refunds.push(await perAddress.reserve(request, address));
        const proved = await known.has(account?.id, address);
        refunds.push(await perAccount.reserve(request, accountKey, { enforce: !proved }));
        return refunds;
      } catch (error) {
        await refundAll(refunds);
        throw error;
      }
    }

    return {
      async attempt(check, { failed, proved = (result) => !failed(result) }) {
        const refunds = await reserve();
        let result;
        try {
          result = await check();
        } catch (error) {
          await refundAll(refunds);
          throw error;
        }
        if (failed(result)) return result;
        await refundAll(refunds);
        if (account && proved(result)) await known.add(account.id, address);
        return result;
      },
    };
  };
}

async function refundAll(refunds: Refund[]): Promise<void> {
  await Promise.all(refunds.map((refund) => refund()));
}
