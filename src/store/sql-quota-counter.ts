/**
 * Quota counter in the SQL store: one upsert per request whose conditional
 * update makes the check and the increment one atomic statement, on SQLite
 * (>= 3.35, serialised by its write lock) and on PostgreSQL (row lock) alike.
 */
import type { Kysely } from 'kysely';
import { sql } from './kysely.js';
import { CountBuffer, type PendingCount } from '../access/count-buffer.js';
import type { QuotaCounter, QuotaDecision } from '../access/quota-counter.js';
import { prepareQuery, type PreparedQuery } from './prepared.js';
import type { Database } from './schema.js';

type Slot = { keyId: string; day: string };

export class SqlQuotaCounter implements QuotaCounter {
  readonly #limited: PreparedQuery<Slot & { limit: number }, { used: number }>;
  readonly #unlimited: PreparedQuery<Slot, { used: number }>;
  readonly #used: PreparedQuery<Slot, { used: number }>;
  /** Group commit of keys without a limit; absent when every count is written at once. */
  readonly #buffer: CountBuffer | undefined;

  /** `flushMs` > 0: requests of keys without a limit are counted in memory and written together (CountBuffer). */
  constructor(db: Kysely<Database>, options: { flushMs?: number } = {}) {
    const upsert = (p: Slot & { limit?: number }) =>
      db
        .insertInto('quota_usage')
        .values({ key_id: p.keyId, day: p.day, used: 1 })
        .onConflict((oc) => {
          const update = oc.columns(['key_id', 'day']).doUpdateSet({ used: sql`quota_usage.used + 1` });
          return p.limit === undefined ? update : update.where('quota_usage.used', '<', p.limit);
        })
        .returning('used');
    this.#unlimited = prepareQuery(db, ['keyId', 'day'], upsert);
    this.#limited = prepareQuery(db, ['keyId', 'day', 'limit'], upsert);
    this.#used = prepareQuery(db, ['keyId', 'day'], (p) => db.selectFrom('quota_usage').select('used').where('key_id', '=', p.keyId).where('day', '=', p.day));
    const write = async (counts: PendingCount[]) => {
      // One transaction: one commit for every count of the window; `used + n` keeps other instances' counts.
      await db.transaction().execute(async (trx) => {
        for (const c of counts) {
          await trx
            .insertInto('quota_usage')
            .values({ key_id: c.keyId, day: c.day, used: c.count })
            .onConflict((oc) => oc.columns(['key_id', 'day']).doUpdateSet({ used: sql`quota_usage.used + excluded.used` }))
            .execute();
        }
      });
    };
    if (options.flushMs && options.flushMs > 0) this.#buffer = new CountBuffer(options.flushMs, write);
  }

  consumeNow(keyId: string, day: string, limit: number | null): QuotaDecision | undefined {
    return limit === null && this.#buffer ? { allowed: true, used: this.#buffer.count(keyId, day) } : undefined;
  }

  async consume(keyId: string, day: string, limit: number | null): Promise<QuotaDecision> {
    const now = this.consumeNow(keyId, day, limit);
    if (now) return now;
    if (limit !== null && limit <= 0) return { allowed: false, used: await this.used(keyId, day) };
    const { rows } = limit === null ? await this.#unlimited.execute({ keyId, day }) : await this.#limited.execute({ keyId, day, limit });
    if (rows[0]) return { allowed: true, used: Number(rows[0].used) };
    return { allowed: false, used: await this.used(keyId, day) };
  }

  async used(keyId: string, day: string): Promise<number> {
    await this.#buffer?.flush();
    const { rows } = await this.#used.execute({ keyId, day });
    return rows[0] ? Number(rows[0].used) : 0;
  }

  /** Writes the counts held for group commit; the store calls it before closing. */
  async close(): Promise<void> {
    await this.#buffer?.flush();
  }
}
