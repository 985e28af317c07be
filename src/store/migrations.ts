/**
 * Schema migrations, written with Kysely's schema builder so the same list runs
 * on SQLite and PostgreSQL. Append only: never edit a migration that has shipped.
 */
import type { Kysely, Migration, MigrationProvider } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_keys_and_quotas': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('tier', 'varchar(32)', (c) => c.notNull())
        .addColumn('offer', 'varchar(32)', (c) => c.notNull())
        .addColumn('languages', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(32)')
        .addColumn('revoked_at', 'varchar(32)')
        .execute();
      await db.schema
        .createTable('key_secrets')
        .addColumn('hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('key_id', 'varchar(64)', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('prefix', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('retires_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('key_secrets_key_id').on('key_secrets').column('key_id').execute();
      await db.schema
        .createTable('quota_usage')
        .addColumn('key_id', 'varchar(64)', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('quota_usage_pk', ['key_id', 'day'])
        .execute();
    },
  },
};

/** Hands Kysely's Migrator the migrations above, in name order. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
