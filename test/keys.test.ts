// Pins key issuance and lifecycle in the service layer: plans, expiry, hashing at rest, rotation and revocation.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SQLITE_FILE } from '../src/store/sqlite-store.js';
import { harness, type Harness } from './helpers.js';

describe('keys', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ start: '2026-01-01T00:00:00.000Z' });
  });
  after(() => h.close());

  it("issues keys of the documented shape with the offer's lifetime", async () => {
    const evaluation = await h.services.keys.create({ tier: 'evaluation', offer: 'evaluation' });
    const pilot = await h.services.keys.create({ tier: 'startup', offer: 'pilot', languages: ['sw', 'ZU', 'sna'] });
    const full = await h.services.keys.create({ tier: 'enterprise', offer: 'full' });
    assert.ok(evaluation.ok && pilot.ok && full.ok);
    assert.match(evaluation.value.key, /^lugha_[0-9A-Za-z]{43}$/);
    assert.equal(evaluation.value.record.expiresAt, null);
    assert.equal(pilot.value.record.expiresAt, '2026-03-17T00:00:00.000Z'); // 75 days
    assert.deepEqual(pilot.value.record.languages, ['swh', 'zul', 'sna']);
    assert.equal(full.value.record.expiresAt, '2027-01-01T00:00:00.000Z'); // 365 days
    assert.notEqual(evaluation.value.key, full.value.key);
  });

  it('refuses bad combinations with a message that says what to do', async () => {
    const cases: Array<[Parameters<Harness['services']['keys']['create']>[0], RegExp]> = [
      [{ tier: 'startup', offer: 'pilot', languages: ['swh', 'zul'] }, /exactly 3 languages.*got 2/],
      [{ tier: 'startup', offer: 'pilot', languages: ['swh', 'zul', 'sna', 'lug'] }, /exactly 3 languages.*got 4/],
      [{ tier: 'startup', offer: 'pilot' }, /exactly 3 languages.*got 0/],
      [{ tier: 'startup', offer: 'pilot', languages: ['sw', 'swh', 'zul'] }, /"swh" is listed twice/],
      [{ tier: 'startup', offer: 'pilot', languages: ['swh', 'zul', 'eng'] }, /"eng" is not a known Bantu language/],
      [{ tier: 'startup', offer: 'full', languages: ['swh'] }, /covers every language/],
      [{ tier: 'academic', offer: 'evaluation', languages: ['swh'] }, /foundational/],
      [{ tier: 'gold', offer: 'full' }, /unknown tier "gold"; allowed: evaluation, academic, startup, enterprise/],
      [{ tier: 'startup', offer: 'trial' }, /unknown offer "trial"; allowed: evaluation, pilot, full/],
      [{ tier: 'startup', offer: 'full', name: 'x\u0007' }, /printable/],
    ];
    for (const [input, message] of cases) {
      const result = await h.services.keys.create(input);
      assert.equal(result.ok, false, JSON.stringify(input));
      if (!result.ok) assert.match(result.message, message);
    }
  });

  it('keeps keys only as hashes', async () => {
    const { key } = await h.issue('startup');
    const bytes = readFileSync(path.join(h.dataDir, SQLITE_FILE));
    const wal = readFileSync(path.join(h.dataDir, `${SQLITE_FILE}-wal`));
    const secret = key.slice('lugha_'.length);
    assert.equal(bytes.includes(secret), false);
    assert.equal(wal.includes(secret), false);
    const listing = await h.services.keys.list();
    assert.doesNotMatch(JSON.stringify(listing), new RegExp(secret));
  });

  it('rotates: both secrets work during the grace period, only the new one after', async () => {
    const { key: old, id } = await h.issue('academic');
    const rotated = await h.services.keys.rotate(id, 3_600_000);
    assert.ok(rotated.ok);
    const fresh = rotated.value.key;
    assert.equal((await h.services.keys.authenticate(`Bearer ${old}`)).ok, true);
    assert.equal((await h.services.keys.authenticate(`Bearer ${fresh}`)).ok, true);
    const listing = (await h.services.keys.list()).find((k) => k.id === id)!;
    assert.equal(listing.activePrefixes.length, 2);
    h.clock.advance(3_600_000);
    const after = await h.services.keys.authenticate(`Bearer ${old}`);
    assert.equal(after.ok, false);
    if (!after.ok) assert.equal(after.code, 'key_rotated');
    assert.equal((await h.services.keys.authenticate(`Bearer ${fresh}`)).ok, true);
  });

  it('revokes at once and refuses to rotate a revoked key', async () => {
    const { key, id } = await h.issue('startup');
    assert.ok((await h.services.keys.revoke(id)).ok);
    const auth = await h.services.keys.authenticate(`Bearer ${key}`);
    assert.equal(auth.ok, false);
    if (!auth.ok) assert.equal(auth.code, 'key_revoked');
    const again = await h.services.keys.revoke(id);
    assert.equal(again.ok, false);
    const rotate = await h.services.keys.rotate(id, 0);
    assert.equal(rotate.ok, false);
    if (!rotate.ok) assert.equal(rotate.code, 'key_revoked');
    const unknown = await h.services.keys.rotate('key_doesnotexist0000', 0);
    assert.equal(unknown.ok, false);
    if (!unknown.ok) assert.equal(unknown.code, 'key_unknown');
  });
});
