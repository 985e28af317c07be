/**
 * The Store over any Kysely database. The SQL here is portable between SQLite
 * and PostgreSQL; each implementation only opens its connection and dialect.
 */
import type { Kysely, Selectable } from 'kysely';
import { Migrator, sql } from './kysely.js';
import type { Offer, Tier } from '../access/plans.js';
import { KyselyAudioRepository } from './kysely-audio-repository.js';
import { migrationProvider } from './migrations.js';
import { prepareQuery } from './prepared.js';
import type { ApiKeysTable, Database, KeySecretsTable } from './schema.js';
import { SqlQuotaCounter } from './sql-quota-counter.js';
import type { KeyRecord, KeyRepository, SecretRecord, Store } from './store.js';

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export class KyselyStore implements Store {
  readonly keys: KeyRepository;
  readonly quota: SqlQuotaCounter;
  readonly audio: KyselyAudioRepository;

  constructor(
    readonly kind: Store['kind'],
    /** The query builder itself, for the operator commands that copy and check (src/store/copy.ts). */
    readonly db: Kysely<Database>,
    options: { changeCounter?: () => number; quotaFlushMs?: number } = {},
  ) {
    this.keys = new KyselyKeyRepository(db, options.changeCounter);
    this.quota = new SqlQuotaCounter(db, { flushMs: options.quotaFlushMs ?? 0 });
    this.audio = new KyselyAudioRepository(db);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    try {
      await this.quota.close();
    } finally {
      await this.db.destroy();
    }
  }
}

class KyselyKeyRepository implements KeyRepository {
  /** Runs on every authenticated request, so it is compiled once. */
  readonly #bySecretHash;

  constructor(
    private readonly db: Kysely<Database>,
    readonly changeCounter?: () => number,
  ) {
    this.#bySecretHash = prepareQuery(db, ['hash'], (p: { hash: string }) =>
      db.selectFrom('key_secrets as s').innerJoin('api_keys as k', 'k.id', 's.key_id').selectAll('k').select(['s.hash', 's.prefix', 's.created_at as secret_created_at', 's.retires_at']).where('s.hash', '=', p.hash),
    );
  }

  async create(key: KeyRecord, secret: SecretRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('api_keys').values(keyRow(key)).execute();
      await trx.insertInto('key_secrets').values(secretRow(secret)).execute();
    });
  }

  async findBySecretHash(hash: string) {
    const row = (await this.#bySecretHash.execute({ hash })).rows[0];
    if (!row) return undefined;
    return {
      key: toKey(row),
      secret: toSecret({ hash: row.hash, key_id: row.id, prefix: row.prefix, created_at: row.secret_created_at, retires_at: row.retires_at }),
    };
  }

  async get(id: string) {
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toKey(row) : undefined;
  }

  async list() {
    const keys = await this.db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    const secrets = await this.db.selectFrom('key_secrets').selectAll().orderBy('created_at', 'desc').execute();
    return keys.map((k) => ({
      ...toKey(k),
      secrets: secrets.filter((s) => s.key_id === k.id).map(toSecret),
    }));
  }

  async rotate(id: string, secret: SecretRecord, retireAt: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const key = await trx.selectFrom('api_keys').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
      if (!key || key.revoked_at !== null) return false;
      await trx
        .updateTable('key_secrets')
        .set({ retires_at: retireAt })
        .where('key_id', '=', id)
        .where((eb) => eb.or([eb('retires_at', 'is', null), eb('retires_at', '>', retireAt)]))
        .execute();
      await trx.insertInto('key_secrets').values(secretRow(secret)).execute();
      return true;
    });
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function keyRow(key: KeyRecord): ApiKeysTable {
  return {
    id: key.id,
    name: key.name,
    tier: key.tier,
    offer: key.offer,
    languages: key.languages ? JSON.stringify(key.languages) : null,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    revoked_at: key.revokedAt,
  };
}

function toKey(row: Selectable<ApiKeysTable>): KeyRecord {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier as Tier,
    offer: row.offer as Offer,
    languages: row.languages ? (JSON.parse(row.languages) as string[]) : null,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

function secretRow(secret: SecretRecord): KeySecretsTable {
  return {
    hash: secret.hash,
    key_id: secret.keyId,
    prefix: secret.prefix,
    created_at: secret.createdAt,
    retires_at: secret.retiresAt,
  };
}

function toSecret(row: Selectable<KeySecretsTable>): SecretRecord {
  return { hash: row.hash, keyId: row.key_id, prefix: row.prefix, createdAt: row.created_at, retiresAt: row.retires_at };
}
