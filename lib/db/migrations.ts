/* eslint-disable @typescript-eslint/no-explicit-any -- migrations take Kysely<any>: the schema as it was then */
import { type Kysely, type Migration, sql } from 'kysely';
import { columnTypes, isSqlite } from './dialect.ts';

/**
 * Every schema change, in order (decisions 0001, 0033): append one whose name sorts last; never
 * change or rename one that shipped. What differs between SQLite and PostgreSQL is `columnTypes`.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('users')
        .addColumn('id', t.uuid, (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('display_name', 'text', (col) => col.notNull())
        .addColumn('locale', 'text', (col) => col.notNull())
        .addColumn('accepted_terms_at', t.timestamp, (col) => col.notNull())
        .addColumn('age_confirmed_at', t.timestamp, (col) => col.notNull())
        .addColumn('created_at', t.timestamp, (col) => col.notNull().defaultTo(t.now))
        .addUniqueConstraint('users_email_key', ['email'])
        .addCheckConstraint('users_locale_check', sql`locale in ('en', 'th')`)
        .addCheckConstraint('users_email_length_check', sql`${t.length('email')} <= 254`)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', t.uuid, (col) => col.primaryKey())
        .addColumn('user_id', t.uuid, (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (col) => col.notNull())
        .addColumn('created_at', t.timestamp, (col) => col.notNull().defaultTo(t.now))
        .addColumn('expires_at', t.timestamp, (col) => col.notNull())
        .addColumn('last_seen_at', t.timestamp, (col) => col.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('revoked_at', t.timestamp)
        .addUniqueConstraint('sessions_token_hash_key', ['token_hash'])
        .execute();
      await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires_at_idx').on('sessions').column('expires_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('sessions').execute();
      await db.schema.dropTable('users').execute();
    },
  },
  // Types in lib/play/tables.ts.
  '0002_play_sessions': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('play_sessions')
        .addColumn('id', t.uuid, (col) => col.primaryKey())
        // SQLite cannot alter a column or a constraint, so it gets 0006's column here; no SQLite
        // database was ever made before 0006 existed.
        .addColumn('user_id', t.uuid, (col) =>
          isSqlite(db)
            ? col.references('users.id').onDelete('set null')
            : col.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('started_at', t.timestamp, (col) => col.notNull())
        .addColumn('locale', 'text', (col) => col.notNull())
        .addColumn('user_agent', 'text')
        .addCheckConstraint('play_sessions_locale_check', sql`locale in ('en', 'th')`)
        .execute();
      await db.schema
        .createIndex('play_sessions_user_started_idx')
        .on('play_sessions')
        .columns(['user_id', 'started_at desc'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('play_sessions').execute();
    },
  },
  '0003_launch_tokens': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('launch_tokens')
        .addColumn('jti', t.uuid, (col) => col.primaryKey())
        .addColumn('user_id', t.uuid, (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('play_session_id', t.uuid, (col) => col.notNull().references('play_sessions.id').onDelete('cascade'))
        .addColumn('expires_at', t.timestamp, (col) => col.notNull())
        .addColumn('used_at', t.timestamp)
        .execute();
      await db.schema.createIndex('launch_tokens_expires_at_idx').on('launch_tokens').column('expires_at').execute();
      await db.schema
        .createIndex('launch_tokens_play_session_id_idx')
        .on('launch_tokens')
        .column('play_session_id')
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('launch_tokens').execute();
    },
  },
  '0004_self_exclusions': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('self_exclusions')
        .addColumn('id', t.uuid, (col) => col.primaryKey())
        .addColumn('user_id', t.uuid, (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('starts_at', t.timestamp, (col) => col.notNull())
        .addColumn('ends_at', t.timestamp, (col) => col.notNull())
        .addColumn('period', 'text', (col) => col.notNull())
        .addColumn('created_at', t.timestamp, (col) => col.notNull().defaultTo(t.now))
        .addCheckConstraint('self_exclusions_period_check', sql`period in ('24h', '7d', '30d', '6m')`)
        .addCheckConstraint('self_exclusions_ends_after_start_check', sql`ends_at > starts_at`)
        .execute();
      // The active break is the latest end still in the future: one index range scan per Play.
      await db.schema
        .createIndex('self_exclusions_user_ends_idx')
        .on('self_exclusions')
        .columns(['user_id', 'ends_at desc'])
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('self_exclusions').execute();
    },
  },
  // Types in lib/auth/account-tokens.ts.
  '0005_account_tokens': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema.alterTable('users').addColumn('email_verified_at', t.timestamp).execute();
      await db.schema
        .createTable('account_tokens')
        .addColumn('id', t.uuid, (col) => col.primaryKey())
        .addColumn('user_id', t.uuid, (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (col) => col.notNull())
        .addColumn('token_hash', 'text', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('created_at', t.timestamp, (col) => col.notNull())
        .addColumn('expires_at', t.timestamp, (col) => col.notNull())
        .addColumn('used_at', t.timestamp)
        .addUniqueConstraint('account_tokens_token_hash_key', ['token_hash'])
        .addCheckConstraint(
          'account_tokens_purpose_check',
          sql`purpose in ('password_reset', 'email_verification', 'email_change')`,
        )
        .execute();
      await db.schema
        .createIndex('account_tokens_user_purpose_idx')
        .on('account_tokens')
        .columns(['user_id', 'purpose'])
        .execute();
      await db.schema.createIndex('account_tokens_expires_at_idx').on('account_tokens').column('expires_at').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('account_tokens').execute();
      await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
    },
  },
  // Deleting an account keeps its play sessions, anonymised (decision 0011).
  '0006_anonymous_play_sessions': {
    async up(db: Kysely<any>) {
      if (isSqlite(db)) return; // done by 0002
      await db.schema
        .alterTable('play_sessions')
        .alterColumn('user_id', (col) => col.dropNotNull())
        .execute();
      await db.schema.alterTable('play_sessions').dropConstraint('play_sessions_user_id_fkey').execute();
      await db.schema
        .alterTable('play_sessions')
        .addForeignKeyConstraint('play_sessions_user_id_fkey', ['user_id'], 'users', ['id'], (cb) =>
          cb.onDelete('set null'),
        )
        .execute();
    },
    async down(db: Kysely<any>) {
      if (isSqlite(db)) return;
      await db.deleteFrom('play_sessions').where('user_id', 'is', null).execute();
      await db.schema.alterTable('play_sessions').dropConstraint('play_sessions_user_id_fkey').execute();
      await db.schema
        .alterTable('play_sessions')
        .addForeignKeyConstraint('play_sessions_user_id_fkey', ['user_id'], 'users', ['id'], (cb) =>
          cb.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .alterTable('play_sessions')
        .alterColumn('user_id', (col) => col.setNotNull())
        .execute();
    },
  },
  // Addresses an account's owner proved, kept by account (decision 0036; lib/auth/known-addresses.ts).
  '0007_login_addresses': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('login_addresses')
        .addColumn('user_id', t.uuid, (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('address_hash', 'text', (col) => col.notNull())
        .addColumn('last_proved_at', t.timestamp, (col) => col.notNull())
        .addPrimaryKeyConstraint('login_addresses_pkey', ['user_id', 'address_hash'])
        .execute();
      await db.schema
        .createIndex('login_addresses_last_proved_at_idx')
        .on('login_addresses')
        .column('last_proved_at')
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('login_addresses').execute();
    },
  },
  // One row the readiness probe writes while the storage is full (plugins/external/database.ts).
  '0008_storage_probe': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('storage_probe')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('written_at', t.timestamp, (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('storage_probe').execute();
    },
  },
};
