import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { defaultHashConcurrency } from '../config-schema.ts';
import { isExactText } from '../text.ts';

export interface PasswordHashingParams {
  /** KiB. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's m=7 MiB, t=5 argon2id (decision 0023); older hashes verify and are replaced at login. */
export const productionHashing: PasswordHashingParams = { memoryCost: 7168, timeCost: 5, parallelism: 1 };

/** Cheap parameters for tests only: never use them for real accounts. */
export const testHashing: PasswordHashingParams = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

// @node-rs/argon2 declares Algorithm as an ambient const enum, which isolatedModules cannot read.
const argon2id = 2 as Algorithm;

/** argon2id over the NFC form; at most `concurrency` at once, the rest queue (decisions 0016, 0022). */
export class PasswordHasher {
  readonly params: PasswordHashingParams;
  readonly #limit: LimitFunction;

  constructor(
    params: PasswordHashingParams = productionHashing,
    { concurrency = defaultHashConcurrency }: { concurrency?: number } = {},
  ) {
    this.params = { ...params };
    this.#limit = pLimit(concurrency);
  }

  /** Not counting those running. */
  get waiting(): number {
    return this.#limit.pendingCount;
  }

  /**
   * Throws for text that is not well-formed or holds U+FFFD: the binding hashes UTF-8, where every
   * lone surrogate becomes U+FFFD, so `a\ud800` and `a\udc01` would be one password.
   */
  hash(password: string): Promise<string> {
    if (!isExactText(password))
      return Promise.reject(new TypeError('Refusing to hash a password that is not well-formed text.'));
    return this.#limit(() => hash(password.normalize('NFC'), { ...this.params, algorithm: argon2id }));
  }

  /** False for a wrong password, an unreadable hash, or text `hash` refuses (never hashed). */
  async verify(passwordHash: string, password: string): Promise<boolean> {
    if (!isExactText(password)) return false;
    try {
      return await this.#limit(() => verify(passwordHash, password.normalize('NFC')));
    } catch {
      return false;
    }
  }

  /** True when the stored hash was made with other parameters than today's. */
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
