// One conformance suite for the daily quota counter, run with the same cases against every
// implementation: the SQL counter (SQLite; PostgreSQL) and the Redis counter. Atomic under
// concurrency, one count per key per UTC day, reset at 00:00 UTC through the injectable clock.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { RedisQuotaCounter } from '../src/access/redis-quota-counter.js';
import { utcDay, type QuotaCounter } from '../src/access/quota-counter.js';
import { ManualClock } from '../src/clock.js';
import { openPostgresStore } from '../src/store/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { LughaError } from '../src/errors.js';
import { freshPostgresDatabase, freshRedisPrefix, postgresUp, redisUp, skipUnless } from './backends.js';
import { tempDir } from './helpers.js';

interface Subject {
  counter: QuotaCounter;
  /** The SQL counter needs the key row (foreign key); Redis needs nothing. */
  addKey(id: string): Promise<void>;
  close(): Promise<void>;
}

async function addKeyTo(store: Store, id: string): Promise<void> {
  const now = '2026-03-10T12:00:00.000Z';
  await store.keys.create(
    { id, name: id, tier: 'startup', offer: 'full', languages: null, createdAt: now, expiresAt: null, revokedAt: null },
    { hash: `${id}`.padEnd(64, '0').slice(0, 64), keyId: id, prefix: 'lugha_x', createdAt: now, retiresAt: null },
  );
}

let keySeq = 0;
const newKeyId = () => `key_conf_${process.pid}_${++keySeq}`;

function conformance(name: string, skip: string | undefined, open: () => Promise<Subject>) {
  describe(`quota counter: ${name}`, { skip }, () => {
    let subject: Subject;
    before(async () => {
      subject = await open();
    });
    after(async () => {
      await subject?.close();
    });

    it('counts up to the limit and then refuses, reporting the count', async () => {
      const id = newKeyId();
      await subject.addKey(id);
      const day = '2026-03-10';
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await subject.counter.consume(id, day, 3));
      assert.deepEqual(decisions, [
        { allowed: true, used: 1 },
        { allowed: true, used: 2 },
        { allowed: true, used: 3 },
        { allowed: false, used: 3 },
      ]);
      assert.equal(await subject.counter.used(id, day), 3);
    });

    it('admits exactly the remaining requests when they arrive at once', async () => {
      const id = newKeyId();
      await subject.addKey(id);
      const day = '2026-03-10';
      await subject.counter.consume(id, day, 50);
      const decisions = await Promise.all(Array.from({ length: 200 }, () => subject.counter.consume(id, day, 50)));
      assert.equal(decisions.filter((d) => d.allowed).length, 49);
      assert.equal(await subject.counter.used(id, day), 50);
      const used = decisions
        .filter((d) => d.allowed)
        .map((d) => d.used)
        .sort((a, b) => a - b);
      assert.deepEqual(
        used,
        Array.from({ length: 49 }, (_, i) => i + 2),
        'every admitted request got its own count',
      );
    });

    it('counts without a limit when the limit is null, and refuses everything at limit 0', async () => {
      const id = newKeyId();
      await subject.addKey(id);
      for (let i = 0; i < 5; i++) assert.equal((await subject.counter.consume(id, '2026-03-10', null)).allowed, true);
      assert.equal(await subject.counter.used(id, '2026-03-10'), 5);
      const other = newKeyId();
      await subject.addKey(other);
      assert.deepEqual(await subject.counter.consume(other, '2026-03-10', 0), { allowed: false, used: 0 });
    });

    it('keeps keys apart', async () => {
      const a = newKeyId();
      const b = newKeyId();
      await subject.addKey(a);
      await subject.addKey(b);
      await subject.counter.consume(a, '2026-03-10', 1);
      assert.equal((await subject.counter.consume(a, '2026-03-10', 1)).allowed, false);
      assert.deepEqual(await subject.counter.consume(b, '2026-03-10', 1), { allowed: true, used: 1 });
      assert.equal(await subject.counter.used(newKeyId(), '2026-03-10'), 0);
    });

    it("starts a new count at 00:00 UTC (injected clock) and keeps the old day's count", async () => {
      const id = newKeyId();
      await subject.addKey(id);
      const clock = new ManualClock('2026-03-10T23:59:59.500Z');
      for (let i = 0; i < 2; i++) assert.equal((await subject.counter.consume(id, utcDay(clock.now()), 2)).allowed, true);
      assert.equal((await subject.counter.consume(id, utcDay(clock.now()), 2)).allowed, false);
      clock.advance(500); // 2026-03-11T00:00:00.000Z
      assert.equal(utcDay(clock.now()), '2026-03-11');
      assert.deepEqual(await subject.counter.consume(id, utcDay(clock.now()), 2), { allowed: true, used: 1 });
      assert.equal(await subject.counter.used(id, '2026-03-10'), 2);
      assert.equal(await subject.counter.used(id, '2026-03-11'), 1);
    });
  });
}

conformance('SQLite', undefined, async () => {
  const dir = tempDir('lugha-quota-sqlite-');
  const store = await openSqliteStore({ dataDir: dir });
  return {
    counter: store.quota,
    addKey: (id) => addKeyTo(store, id),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const pgSkip = skipUnless('PostgreSQL', postgresUp);
conformance('PostgreSQL (SQL counter)', pgSkip, async () => {
  const db = await freshPostgresDatabase();
  const store = await openPostgresStore({ url: db.url });
  return {
    counter: store.quota,
    addKey: (id) => addKeyTo(store, id),
    async close() {
      await store.close();
      await db.drop();
    },
  };
});

const redisSkip = skipUnless('Redis', redisUp);

// The same cases with group commit of unlimited keys' counts (LUGHA_QUOTA_FLUSH_MS): limited keys
// still decide in the shared counter; unlimited ones are read back exactly (used() writes first).
const FLUSH_MS = 20;
conformance('SQLite, group commit', undefined, async () => {
  const dir = tempDir('lugha-quota-sqlite-');
  const store = await openSqliteStore({ dataDir: dir, quotaFlushMs: FLUSH_MS });
  return {
    counter: store.quota,
    addKey: (id) => addKeyTo(store, id),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
conformance('Redis, group commit', redisSkip, async () => {
  const fresh = freshRedisPrefix();
  const counter = await RedisQuotaCounter.open({ url: fresh.url, prefix: fresh.prefix, flushMs: FLUSH_MS });
  return {
    counter,
    addKey: async () => {},
    async close() {
      await counter.close();
      await fresh.clean();
    },
  };
});

interface Shared {
  /** A counter over the shared backend, as another instance would open it. */
  open(flushMs: number): Promise<{ counter: QuotaCounter; close(): Promise<void> }>;
  addKey(id: string): Promise<void>;
  close(): Promise<void>;
}

function groupCommit(name: string, skip: string | undefined, setup: () => Promise<Shared>) {
  describe(`group commit of unlimited counts: ${name}`, { skip }, () => {
    it('stays exact when three instances count the same key at once', async () => {
      const shared = await setup();
      try {
        const id = newKeyId();
        await shared.addKey(id);
        const instances = await Promise.all([0, 1, 2].map(() => shared.open(FLUSH_MS)));
        const decisions = await Promise.all(Array.from({ length: 900 }, (_, i) => instances[i % 3]!.counter.consume(id, '2026-03-10', null)));
        assert.ok(decisions.every((d) => d.allowed));
        // Two instances stop (their counts are written on close); the third reads, writing its own first.
        await instances[0]!.close();
        await instances[1]!.close();
        assert.equal(await instances[2]!.counter.used(id, '2026-03-10'), 900);
        await instances[2]!.close();
      } finally {
        await shared.close();
      }
    });

    it('writes the counts within the window without being asked', async () => {
      const shared = await setup();
      try {
        const id = newKeyId();
        await shared.addKey(id);
        const writer = await shared.open(FLUSH_MS);
        const reader = await shared.open(0);
        for (let i = 0; i < 7; i++) await writer.counter.consume(id, '2026-03-10', null);
        await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 10));
        assert.equal(await reader.counter.used(id, '2026-03-10'), 7, 'written by the timer, not by close or used()');
        await writer.close();
        await reader.close();
      } finally {
        await shared.close();
      }
    });
  });
}

groupCommit('SQLite (instances share one file)', undefined, async () => {
  const dir = tempDir('lugha-quota-gc-');
  const first = await openSqliteStore({ dataDir: dir });
  return {
    async open(flushMs) {
      const store = await openSqliteStore({ dataDir: dir, quotaFlushMs: flushMs });
      return { counter: store.quota, close: () => store.close() };
    },
    addKey: (id) => addKeyTo(first, id),
    async close() {
      await first.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

groupCommit('PostgreSQL', pgSkip, async () => {
  const db = await freshPostgresDatabase();
  const first = await openPostgresStore({ url: db.url });
  return {
    async open(flushMs) {
      const store = await openPostgresStore({ url: db.url, quotaFlushMs: flushMs, poolSize: 2 });
      return { counter: store.quota, close: () => store.close() };
    },
    addKey: (id) => addKeyTo(first, id),
    async close() {
      await first.close();
      await db.drop();
    },
  };
});

groupCommit('Redis', redisSkip, async () => {
  const fresh = freshRedisPrefix();
  return {
    async open(flushMs) {
      const counter = await RedisQuotaCounter.open({ url: fresh.url, prefix: fresh.prefix, flushMs });
      return { counter, close: () => counter.close() };
    },
    addKey: async () => {},
    close: () => fresh.clean(),
  };
});

conformance('Redis', redisSkip, async () => {
  const fresh = freshRedisPrefix();
  const counter = await RedisQuotaCounter.open({ url: fresh.url, prefix: fresh.prefix });
  return {
    counter,
    addKey: async () => {},
    async close() {
      await counter.close();
      await fresh.clean();
    },
  };
});

describe('quota counter: Redis outage', { skip: redisSkip }, () => {
  it('fails closed with quota_unavailable once Redis stops answering, and says nothing of where it is', async () => {
    const fresh = freshRedisPrefix();
    const counter = await RedisQuotaCounter.open({ url: fresh.url, prefix: fresh.prefix, commandTimeoutMs: 500 });
    assert.equal((await counter.consume('k', '2026-03-10', 5)).allowed, true);
    // Close the connection under the counter: what a Redis crash looks like to the client.
    await counter.close();
    const error = await counter.consume('k', '2026-03-10', 5).then(
      () => assert.fail('a request was counted without Redis'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LughaError);
    assert.equal(error.code, 'quota_unavailable');
    assert.equal(error.status, 503);
    assert.doesNotMatch(error.detail, /127\.0\.0\.1|6379|redis:\/\//);
    await fresh.clean();
  });

  it('refuses to open when Redis is not there', async () => {
    await assert.rejects(RedisQuotaCounter.open({ url: 'redis://127.0.0.1:1/0' }), /Redis quota counter unavailable: connection refused/);
  });
});
