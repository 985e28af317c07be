// Pins what a caller sees when the PostgreSQL pool cannot hand out a connection in time (every
// connection busy under a burst, or the database gone): a 503 service_unavailable with
// Retry-After, never an internal error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../src/store/kysely.js';
import { LughaError } from '../src/errors.js';
import type { KyselyStore } from '../src/store/kysely-store.js';
import { openPostgresStore } from '../src/store/postgres-store.js';
import { freshPostgresDatabase, postgresUp, skipUnless, type FreshDatabase } from './backends.js';

const skip = skipUnless('PostgreSQL', postgresUp);

describe('PostgreSQL pool exhausted', { skip }, () => {
  let db: FreshDatabase;
  let store: KyselyStore;
  before(async () => {
    db = await freshPostgresDatabase();
    store = (await openPostgresStore({ url: db.url, poolSize: 1 })) as KyselyStore;
  });
  after(async () => {
    await store?.close();
    await db?.drop();
  });

  it('answers 503 service_unavailable with Retry-After when no connection comes free in time', async () => {
    // The only connection sleeps longer than the pool waits for one.
    const holder = sql`select pg_sleep(7)`.execute(store.db);
    const refused = await store.keys.findBySecretHash('0'.repeat(64)).then(
      () => undefined,
      (error: unknown) => error,
    );
    await holder;
    assert.ok(refused instanceof LughaError, `expected a LughaError, got ${String(refused)}`);
    assert.equal(refused.code, 'service_unavailable');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['Retry-After'], '2');
    assert.doesNotMatch(refused.detail, /postgres:\/\/|127\.0\.0\.1|lugha_test_/, 'no URL or database name in the detail');
    // Once the connection is free again, the store answers.
    assert.equal(await store.keys.findBySecretHash('0'.repeat(64)), undefined);
  });
});
