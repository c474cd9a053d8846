import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Every schema change, in order, defined in code (no files discovered at run time, so the
 * compiled server carries them). lib/db/migrate.ts runs them at start under a lock.
 *
 * To add one: append an entry whose name sorts after the last (`0002_play_sessions`, ...).
 * Never edit or rename an entry once it has shipped; write a new one instead.
 * Migrations take `Kysely<any>`: they describe the schema as it was then, not today's types.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'uuid', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('display_name', 'text', (col) => col.notNull())
        .addColumn('locale', 'text', (col) => col.notNull())
        .addColumn('accepted_terms_at', 'timestamptz', (col) => col.notNull())
        .addColumn('age_confirmed_at', 'timestamptz', (col) => col.notNull())
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('users_email_key', ['email'])
        .addCheckConstraint('users_locale_check', sql`locale in ('en', 'th')`)
        .addCheckConstraint('users_email_length_check', sql`char_length(email) <= 254`)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'uuid', (col) => col.primaryKey())
        .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (col) => col.notNull())
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
        .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('revoked_at', 'timestamptz')
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
};
