import { createHash } from 'node:crypto';
import type { ColumnType, Kysely } from 'kysely';
import type { Database } from '../db/types.ts';

/** An address (IPv6 by its /64) an account's owner proved: a login, a password change or reset. */
export interface LoginAddressesTable {
  user_id: string;
  /** SHA-256 of the user's id and the address: the table never holds an address. */
  address_hash: string;
  last_proved_at: ColumnType<Date, Date | string, Date | string>;
}

declare module '../db/types.ts' {
  interface Database {
    login_addresses: LoginAddressesTable;
  }
}

// Checked for accounts that do not exist too, so the query reveals nothing by its absence.
const noUser = '00000000-0000-0000-0000-000000000000';

/** Addresses each account's owner proved lately, kept in the database by account (decision 0036). */
export class KnownAddresses {
  readonly #db: Kysely<Database>;
  readonly #clock: () => Date;
  readonly #keepMs: number;

  constructor(options: { db: Kysely<Database>; clock: () => Date; keepMs: number }) {
    this.#db = options.db;
    this.#clock = options.clock;
    this.#keepMs = options.keepMs;
  }

  async has(userId: string | undefined, address: string): Promise<boolean> {
    const user = userId ?? noUser;
    const row = await this.#db
      .selectFrom('login_addresses')
      .select('last_proved_at')
      .where('user_id', '=', user)
      .where('address_hash', '=', addressHash(user, address))
      .where('last_proved_at', '>', this.#since())
      .executeTakeFirst();
    return row !== undefined && userId !== undefined;
  }

  /** Nothing happens for an account that is gone (the password that proved it deleted it). */
  async add(userId: string, address: string, db: Kysely<Database> = this.#db): Promise<void> {
    const now = this.#clock();
    const hash = addressHash(userId, address);
    await db
      .insertInto('login_addresses')
      .columns(['user_id', 'address_hash', 'last_proved_at'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select((select) => ['id', select.val(hash).as('address_hash'), select.val(now).as('last_proved_at')])
          .where('id', '=', userId),
      )
      .onConflict((conflict) => conflict.columns(['user_id', 'address_hash']).doUpdateSet({ last_proved_at: now }))
      .execute();
  }

  async sweep(): Promise<number> {
    const deleted = await this.#db
      .deleteFrom('login_addresses')
      .where('last_proved_at', '<=', this.#since())
      .returning('user_id')
      .execute();
    return deleted.length;
  }

  #since(): Date {
    return new Date(this.#clock().getTime() - this.#keepMs);
  }
}

function addressHash(userId: string, address: string): string {
  return createHash('sha256').update(`${userId}\n${address}`).digest('hex');
}
