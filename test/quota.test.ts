// Pins daily quotas: exact under concurrency (also across database connections), 429 with Retry-After, reset at 00:00 UTC.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../src/access/key-service.js';
import { Meter } from '../src/access/meter.js';
import { tierLimits } from '../src/access/plans.js';
import { ManualClock } from '../src/clock.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import { harness, problemOf, type Harness } from './helpers.js';

describe('daily quota', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ start: '2026-06-30T23:59:00.000Z' });
  });
  after(() => h.close());

  it('admits exactly the requests left when many arrive at once', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    for (let i = 0; i < 40; i++) assert.equal((await h.call(key, '/api/v1/languages')).statusCode, 200);
    const responses = await Promise.all(Array.from({ length: 150 }, () => h.call(key, '/api/v1/languages')));
    const ok = responses.filter((r) => r.statusCode === 200);
    const limited = responses.filter((r) => r.statusCode === 429);
    assert.equal(ok.length, 60);
    assert.equal(limited.length, 90);
    const remaining = ok.map((r) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))![1])).sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 60 }, (_, i) => i),
      'each admitted request saw a distinct count',
    );
  });

  it('answers a spent quota with 429, Retry-After and the reset time, and resets at 00:00 UTC', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    for (let i = 0; i < 100; i++) await h.call(key, '/api/v1/languages');
    const spent = await h.call(key, '/api/v1/languages');
    assert.equal(spent.statusCode, 429);
    const body = problemOf(spent);
    assert.equal(body.code, 'quota_exceeded');
    assert.equal(body.type, '/problems/quota-exceeded');
    assert.equal(spent.headers['retry-after'], '60');
    assert.equal(spent.headers.ratelimit, '"daily";r=0;t=60');
    assert.equal(spent.headers['ratelimit-policy'], '"daily";q=100;w=86400');
    h.clock.advance(59_000); // 23:59:59, still the same UTC day
    assert.equal((await h.call(key, '/api/v1/languages')).statusCode, 429);
    h.clock.advance(1_000); // 00:00:00 UTC
    const next = await h.call(key, '/api/v1/languages');
    assert.equal(next.statusCode, 200);
    assert.equal(next.headers.ratelimit, '"daily";r=99;t=86400');
    h.clock.set('2026-06-30T23:59:00.000Z');
  });

  it('counts per key: one key spending its quota leaves another untouched', async () => {
    const a = await h.issue('evaluation', 'evaluation');
    const b = await h.issue('evaluation', 'evaluation');
    for (let i = 0; i < 101; i++) await h.call(a.key, '/api/v1/languages');
    assert.equal((await h.call(a.key, '/api/v1/languages')).statusCode, 429);
    assert.equal((await h.call(b.key, '/api/v1/languages')).headers.ratelimit, '"daily";r=99;t=60');
  });
});

describe('quota counter across connections', () => {
  it('stays exact when two connections to one database file race', async () => {
    const h = await harness();
    const second = await openSqliteStore({ dataDir: h.dataDir });
    try {
      const { id } = await h.issue('academic');
      const clock = new ManualClock('2026-03-10T12:00:00.000Z');
      const principal: Principal = { keyId: id, tier: 'academic', offer: 'full', languages: null, expiresAt: null, limits: tierLimits.academic };
      const meters = [new Meter({ counter: h.services.store.quota, clock }), new Meter({ counter: second.quota, clock })];
      const readings = await Promise.all(Array.from({ length: 700 }, (_, i) => meters[i % 2]!.consume(principal)));
      assert.equal(readings.filter((r) => r.allowed).length, 500);
      assert.equal(await second.quota.used(id, '2026-03-10'), 500);
    } finally {
      await second.close();
      await h.close();
    }
  });
});

describe('quota counter across processes', () => {
  it('admits exactly the limit when three processes share one database file', async () => {
    const h = await harness();
    try {
      const { id } = await h.issue('academic');
      const child = path.join(import.meta.dirname, 'fixtures', 'consume-quota.ts');
      const startAt = String(Date.now() + 3000);
      const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', child, h.dataDir, id, '2026-03-10', '2500', '1000', startAt]);
      const results = await Promise.all([run(), run(), run()]);
      const allowed = results.map((r) => Number(r.stdout));
      assert.equal(
        allowed.reduce((a, b) => a + b, 0),
        2500,
        `admitted per process: ${allowed.join(', ')}`,
      );
      assert.equal(await h.services.store.quota.used(id, '2026-03-10'), 2500);
    } finally {
      await h.close();
    }
  });
});
