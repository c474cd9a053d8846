import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { defaultHashConcurrency } from '../config-schema.ts';
import { isExactText } from '../text.ts';

export interface PasswordHashingParams {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over the memory. */
  timeCost: number;
  /** Lanes (threads) per hash. */
  parallelism: number;
}

/**
 * argon2id at the last of OWASP's five equally strong settings (m=7 MiB, t=5, p=1): the same
 * defence as its first (m=19 MiB, t=2), which this site used until decision 0002 was amended,
 * for 12 MiB less held while a hash runs and, measured here, about a fifth less CPU a hash.
 * Hashes made with the earlier setting still verify and are replaced at the next login.
 */
export const productionHashing: PasswordHashingParams = { memoryCost: 7168, timeCost: 5, parallelism: 1 };

/** Cheap parameters for tests only: never use them for real accounts. */
export const testHashing: PasswordHashingParams = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

// @node-rs/argon2 declares Algorithm as an ambient const enum, which isolatedModules cannot read.
const argon2id = 2 as Algorithm;

/**
 * Hashes and verifies passwords with argon2id. Passwords are NFC-normalized first, so the same
 * password typed on two keyboards (composed or decomposed Thai or accented letters) matches.
 *
 * At most `concurrency` hashes or verifications run at once (one by default); the rest wait their
 * turn. Each holds memoryCost (7 MiB) while it runs, on one of libuv's four threads: four at once
 * held four blocks of a replica's memory and every thread the file system and DNS share, while on
 * two cores they took no less time in all than two at a time do (docs/decisions/0016 and 0022).
 */
export class PasswordHasher {
  readonly params: PasswordHashingParams;
  readonly #limit: LimitFunction;

  constructor(params: PasswordHashingParams = productionHashing, { concurrency = defaultHashConcurrency }: { concurrency?: number } = {}) {
    this.params = { ...params };
    this.#limit = pLimit(concurrency);
  }

  /** Hashes waiting for a turn (not counting those running). */
  get waiting(): number {
    return this.#limit.pendingCount;
  }

  /**
   * Refuses (throws) a password that is not well-formed or holds U+FFFD: the binding hashes the
   * UTF-8 form, where a lone surrogate is U+FFFD, so `a\ud800` and `a\udc01` would be one
   * password. lib/auth/validation.ts's checkNewPassword refuses them first with a field code.
   */
  hash(password: string): Promise<string> {
    if (!isExactText(password)) return Promise.reject(new TypeError('Refusing to hash a password that is not well-formed text.'));
    return this.#limit(() => hash(password.normalize('NFC'), { ...this.params, algorithm: argon2id }));
  }

  /**
   * False for a wrong password and for a stored hash that cannot be read. False too, without
   * hashing, for a password that is not well-formed or holds U+FFFD: none can be set (see hash),
   * and a hash stored before that rule may be a lone surrogate's, which any of them would match.
   */
  async verify(passwordHash: string, password: string): Promise<boolean> {
    if (!isExactText(password)) return false;
    try {
      return await this.#limit(() => verify(passwordHash, password.normalize('NFC')));
    } catch {
      return false;
    }
  }

  /** True when the stored hash was made with other parameters than today's (rehash at next login). */
  needsRehash(passwordHash: string): boolean {
    try {
      const used = parseOptions(passwordHash);
      return (
        used.algorithm !== argon2id ||
        used.memoryCost !== this.params.memoryCost ||
        used.timeCost !== this.params.timeCost ||
        used.parallelism !== this.params.parallelism
      );
    } catch {
      return true;
    }
  }
}
