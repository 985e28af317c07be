/**
 * Quota counter in the SQL store: one upsert per request whose conditional
 * update makes the check and the increment one atomic statement, on SQLite
 * (>= 3.35, serialised by its write lock) and on PostgreSQL (row lock) alike.
 */
import { sql, type Kysely } from 'kysely';
import type { QuotaCounter, QuotaDecision } from '../access/quota-counter.js';
import type { Database } from './schema.js';

export class SqlQuotaCounter implements QuotaCounter {
  constructor(private readonly db: Kysely<Database>) {}

  async consume(keyId: string, day: string, limit: number | null): Promise<QuotaDecision> {
    if (limit !== null && limit <= 0) return { allowed: false, used: await this.used(keyId, day) };
    const row = await this.db
      .insertInto('quota_usage')
      .values({ key_id: keyId, day, used: 1 })
      .onConflict((oc) => {
        const update = oc.columns(['key_id', 'day']).doUpdateSet({ used: sql`quota_usage.used + 1` });
        return limit === null ? update : update.where('quota_usage.used', '<', limit);
      })
      .returning('used')
      .executeTakeFirst();
    if (row) return { allowed: true, used: Number(row.used) };
    return { allowed: false, used: await this.used(keyId, day) };
  }

  async used(keyId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('quota_usage')
      .select('used')
      .where('key_id', '=', keyId)
      .where('day', '=', day)
      .executeTakeFirst();
    return row ? Number(row.used) : 0;
  }
}
