// The in-process key cache never lets a changed key through longer than documented: a key revoked
// or rotated through the same service is refused on the next request; through another process, on
// the next request with Redis, within KEY_CHANGE_CHECK_MS over the same SQLite file, and within
// KEY_CACHE_TTL_MS over PostgreSQL alone.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { KEY_CACHE_TTL_MS, KEY_CHANGE_CHECK_MS } from '../src/access/key-service.js';
import { loadConfig, type ConfigFlags } from '../src/config.js';
import { openServices, type Services } from '../src/services.js';
import { freshPostgresDatabase, freshRedisPrefix, postgresUp, redisUp, skipUnless } from './backends.js';
import { tempDir } from './helpers.js';

async function twoInstances(flags: ConfigFlags): Promise<{ a: Services; b: Services; close(): Promise<void> }> {
  const dataDir = tempDir('lugha-keycache-');
  const open = () => openServices(loadConfig({ env: {}, flags: { dataDir, logLevel: 'silent', ...flags } }));
  const a = await open();
  const b = await open();
  return {
    a,
    b,
    async close() {
      await a.close();
      await b.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function code(services: Services, key: string): Promise<string> {
  const auth = await services.keys.authenticate(`Bearer ${key}`);
  return auth.ok ? 'ok' : auth.code;
}

/** Revocation and rotation (grace 0) by instance b, seen by instance a, which had the key cached. */
async function changesSeen(a: Services, b: Services, wait: () => Promise<void>): Promise<void> {
  const issued = await b.keys.create({ tier: 'startup', offer: 'full' });
  assert.ok(issued.ok);
  const { key, record } = issued.value;
  for (let i = 0; i < 3; i++) assert.equal(await code(a, key), 'ok'); // cached now

  const rotated = await b.keys.rotate(record.id, 0);
  assert.ok(rotated.ok);
  await wait();
  assert.equal(await code(a, key), 'key_rotated');
  assert.equal(await code(a, rotated.value.key), 'ok');

  assert.ok((await b.keys.revoke(record.id)).ok);
  await wait();
  assert.equal(await code(a, rotated.value.key), 'key_revoked');
}

describe('key cache', () => {
  it('SQLite: a change committed by another connection is seen once KEY_CHANGE_CHECK_MS have passed', async () => {
    const pair = await twoInstances({});
    try {
      await changesSeen(pair.a, pair.b, () => new Promise((resolve) => setTimeout(resolve, KEY_CHANGE_CHECK_MS + 10)));
    } finally {
      await pair.close();
    }
  });

  it('SQLite: a change made through the same service is seen on the next lookup', async () => {
    const pair = await twoInstances({});
    try {
      await changesSeen(pair.a, pair.a, async () => {});
    } finally {
      await pair.close();
    }
  });

  const pgSkip = skipUnless('PostgreSQL', postgresUp);
  it('PostgreSQL + Redis: a change published by another instance is seen on the next lookup', { skip: pgSkip ?? skipUnless('Redis', redisUp) }, async () => {
    const db = await freshPostgresDatabase();
    const redis = freshRedisPrefix();
    const pair = await twoInstances({ databaseUrl: db.url, redisUrl: redis.url, redisPrefix: redis.prefix });
    try {
      // One turn of the event loop, as for a request on the network: the message is in a's socket by then.
      await changesSeen(pair.a, pair.b, () => new Promise((resolve) => setTimeout(resolve, 10)));
    } finally {
      await pair.close();
      await db.drop();
      await redis.clean();
    }
  });

  it('PostgreSQL alone: a change made by another instance is seen once the cache entry expires', { skip: pgSkip }, async () => {
    const db = await freshPostgresDatabase();
    const pair = await twoInstances({ databaseUrl: db.url });
    try {
      const issued = await pair.b.keys.create({ tier: 'startup', offer: 'full' });
      assert.ok(issued.ok);
      assert.equal(await code(pair.a, issued.value.key), 'ok');
      assert.ok((await pair.b.keys.revoke(issued.value.record.id)).ok);
      await new Promise((resolve) => setTimeout(resolve, KEY_CACHE_TTL_MS + 50));
      assert.equal(await code(pair.a, issued.value.key), 'key_revoked');
    } finally {
      await pair.close();
      await db.drop();
    }
  });
});
