import type { FastifyRequest } from 'fastify';
import type { KnownAddresses } from '../../lib/auth/known-addresses.ts';
import { limitKey } from '../../lib/rate-limit/settings.ts';
import type { RateLimits, Refund } from '../external/rate-limits.ts';

/** The password checks of one account from one client. */
export interface LoginThrottle {
  /**
   * One password check, counted before it runs (429 past a limit) and taken back unless
   * `failed`; when `proved` (by default: not failed) the address becomes one the owner used.
   */
  attempt<T>(check: () => Promise<T>, outcome: AttemptOutcome<T>): Promise<T>;
}

export interface AttemptOutcome<T> {
  failed: (result: T) => boolean;
  proved?: (result: T) => boolean;
}

/** The account a password is checked against, or undefined when no account uses the email. */
export interface ThrottledAccount {
  id: string;
  password_hash: string;
}

/**
 * Wrong passwords slow down whoever types them, never the owner (decisions 0026, 0036). The account
 * key hashes the password hash too, so a reset starts strangers' counts afresh.
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
      // Known first, so no count is taken before the answer that decides whether it binds.
      const proved = await known.has(account?.id, address);
      const refunds: Refund[] = [];
      try {
        refunds.push(await perAccountAndAddress.reserve(request, `${accountKey}:${address}`));
        if (countsAddress) refunds.push(await perAddress.reserve(request, address));
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
