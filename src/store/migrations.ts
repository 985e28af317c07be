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
  '0002_audio': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('speakers')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('local_id', 'varchar(200)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('consents')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('speaker_id', 'varchar(64)', (c) => c.notNull().references('speakers.id').onDelete('cascade'))
        .addColumn('form_version', 'varchar(64)', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('consented_on', 'varchar(32)', (c) => c.notNull())
        .addColumn('jurisdiction', 'varchar(64)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('withdrawn_at', 'varchar(32)')
        .execute();
      await db.schema.createIndex('consents_speaker_id').on('consents').column('speaker_id').execute();
      await db.schema
        .createTable('recordings')
        .addColumn('recording_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('language', 'varchar(8)', (c) => c.notNull())
        .addColumn('mode', 'varchar(16)', (c) => c.notNull())
        .addColumn('numeral', 'integer', (c) => c.notNull())
        .addColumn('transcript', 'text', (c) => c.notNull())
        .addColumn('transcript_english', 'text')
        .addColumn('switch_ms', 'integer')
        .addColumn('switch_detected', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('sample_rate', 'integer', (c) => c.notNull())
        .addColumn('channels', 'integer', (c) => c.notNull())
        .addColumn('format', 'varchar(16)', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('sample_rank', 'varchar(64)', (c) => c.notNull())
        .addColumn('synthetic', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('speaker_id', 'varchar(64)', (c) => c.notNull().references('speakers.id'))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('recordings_language_mode').on('recordings').columns(['language', 'mode', 'sample_rank']).execute();
      await db.schema.createIndex('recordings_speaker_id').on('recordings').column('speaker_id').execute();
    },
  },
  '0003_audio_range_meter': {
    async up(db: Kysely<unknown>) {
      // Range requests for one clip count once per key and UTC day: the first one is recorded here.
      await db.schema
        .createTable('audio_range_seen')
        .addColumn('key_id', 'varchar(64)', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
        .addColumn('recording_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addPrimaryKeyConstraint('audio_range_seen_pk', ['key_id', 'recording_id', 'day'])
        .execute();
    },
  },
};

/** Hands Kysely's Migrator the migrations above, in name order. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
