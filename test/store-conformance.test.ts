// One conformance suite for the Store, run with the same cases against SQLite and PostgreSQL:
// keys (create, lookup by hash, rotate, revoke), the audio corpus (speakers, consent, withdrawal,
// recordings, the fixed sample, live coverage, range bookkeeping) and concurrent migrations.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { openPostgresStore } from '../src/store/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite-store.js';
import type { KeyRecord, RecordingRecord, SecretRecord, Store } from '../src/store/store.js';
import { freshPostgresDatabase, postgresUp, skipUnless } from './backends.js';
import { tempDir } from './helpers.js';

const T0 = '2026-03-10T12:00:00.000Z';

function key(id: string, extra: Partial<KeyRecord> = {}): KeyRecord {
  return { id, name: `name ${id}`, tier: 'academic', offer: 'pilot', languages: ['swh', 'zul', 'sna'], createdAt: T0, expiresAt: '2026-05-24T12:00:00.000Z', revokedAt: null, ...extra };
}
function secret(keyId: string, n: number, createdAt = T0): SecretRecord {
  return { hash: `${keyId}-${n}`.padEnd(64, 'f'), keyId, prefix: `lugha_${n}`, createdAt, retiresAt: null };
}

let shaSeq = 0;
function recording(id: string, speakerId: string, extra: Partial<RecordingRecord> = {}): RecordingRecord {
  return {
    recordingId: id,
    language: 'swh',
    mode: 'bantu_only',
    numeral: 7,
    transcript: 'saba',
    transcriptEnglish: null,
    switchMs: null,
    switchDetected: false,
    durationMs: 1200,
    sampleRate: 16000,
    channels: 1,
    format: 'wav',
    bytes: 38444,
    sha256: (++shaSeq).toString(16).padStart(64, '0'),
    sampleRank: id,
    synthetic: false,
    speakerId,
    createdAt: T0,
    ...extra,
  };
}

function conformance(name: string, skip: string | undefined, open: () => Promise<{ store: Store; close(): Promise<void> }>) {
  describe(`store: ${name}`, { skip }, () => {
    let store: Store;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await open());
    });
    after(async () => {
      await store?.close();
      await close?.();
    });

    it('answers a ping', async () => {
      await store.ping();
    });

    it('creates a key and finds it by its secret hash, with the languages it names', async () => {
      await store.keys.create(key('k1'), secret('k1', 1));
      const found = await store.keys.findBySecretHash(secret('k1', 1).hash);
      assert.deepEqual(found?.key, key('k1'));
      assert.deepEqual(found?.secret, secret('k1', 1));
      assert.equal(await store.keys.findBySecretHash('0'.repeat(64)), undefined);
      assert.deepEqual(await store.keys.get('k1'), key('k1'));
      assert.equal(await store.keys.get('nope'), undefined);
    });

    it('refuses a second key with the same id and leaves no half-created key', async () => {
      await store.keys.create(key('k2', { languages: null, offer: 'full' }), secret('k2', 1));
      await assert.rejects(store.keys.create(key('k2'), secret('k2', 9)));
      assert.equal(await store.keys.findBySecretHash(secret('k2', 9).hash), undefined);
    });

    it('rotates: the new secret works, the old one retires at the given time; a revoked key cannot rotate', async () => {
      await store.keys.create(key('k3'), secret('k3', 1));
      const later = '2026-03-11T12:00:00.000Z';
      assert.equal(await store.keys.rotate('k3', secret('k3', 2, later), '2026-03-12T12:00:00.000Z'), true);
      assert.equal((await store.keys.findBySecretHash(secret('k3', 1).hash))?.secret.retiresAt, '2026-03-12T12:00:00.000Z');
      assert.equal((await store.keys.findBySecretHash(secret('k3', 2).hash))?.secret.retiresAt, null);
      const listed = (await store.keys.list()).find((k) => k.id === 'k3');
      assert.deepEqual(
        listed?.secrets.map((s) => s.prefix),
        ['lugha_2', 'lugha_1'],
        'newest secret first',
      );
      assert.equal(await store.keys.rotate('nope', secret('nope', 1), later), false);
      assert.equal(await store.keys.revoke('k3', later), true);
      assert.equal(await store.keys.revoke('k3', later), false, 'already revoked');
      assert.equal((await store.keys.get('k3'))?.revokedAt, later);
      assert.equal(await store.keys.rotate('k3', secret('k3', 3), later), false);
    });

    it('lists keys oldest first', async () => {
      await store.keys.create(key('k0-old', { createdAt: '2026-01-01T00:00:00.000Z' }), secret('k0-old', 1));
      const ids = (await store.keys.list()).map((k) => k.id);
      assert.equal(ids[0], 'k0-old');
      assert.deepEqual(ids.slice(1), ['k1', 'k2', 'k3']);
    });

    it('keeps one speaker per operator label, and consent records without duplicates', async () => {
      const a = await store.audio.ensureSpeaker('alice', T0);
      assert.equal(await store.audio.ensureSpeaker('alice', T0), a);
      assert.match(a, /^spk_/);
      assert.equal(await store.audio.speakerIdOf('nobody'), undefined);
      assert.equal(await store.audio.hasActiveConsent(a), false);
      const consent = { id: 'c-a', speakerId: a, formVersion: 'v1', scopes: ['research', 'commercial'], consentedOn: '2026-01-05', jurisdiction: 'KE', status: 'active' as const, withdrawnAt: null };
      await store.audio.addConsent(consent);
      await store.audio.addConsent({ ...consent, id: 'c-a-dup' });
      assert.equal(await store.audio.hasActiveConsent(a), true);
      const listed = (await store.audio.listConsents()).filter((c) => c.localId === 'alice');
      assert.deepEqual(listed, [{ ...consent, localId: 'alice' }]);
    });

    it('lists consented clips in sample order, caps the sample, counts coverage, and stops at withdrawal', async () => {
      const a = (await store.audio.speakerIdOf('alice'))!;
      const b = await store.audio.ensureSpeaker('bob', T0);
      await store.audio.addConsent({ id: 'c-b', speakerId: b, formVersion: 'v1', scopes: ['research'], consentedOn: '2026-01-06', jurisdiction: 'TZ', status: 'active', withdrawnAt: null });
      const clips = [
        recording('r-03', a),
        recording('r-01', a),
        recording('r-02', b, { synthetic: true }),
        recording('r-04', b, { mode: 'bantu_english', transcriptEnglish: 'seven', switchMs: 640, switchDetected: true }),
      ];
      for (const clip of clips) await store.audio.insertRecording(clip);
      assert.equal(await store.audio.hasSha(clips[0]!.sha256), true);
      assert.equal(await store.audio.hasSha('f'.repeat(64)), false);
      assert.deepEqual([...(await store.audio.allShas())].sort(), clips.map((c) => c.sha256).sort());

      const got = await store.audio.getRecording('r-04');
      assert.deepEqual(got, { ...clips[3], consented: true });
      assert.equal(await store.audio.getRecording('r-99'), undefined);

      const all = await store.audio.listRecordings({ language: 'swh', limit: 10, offset: 0 });
      assert.equal(all.total, 4);
      assert.deepEqual(
        all.items.map((r) => r.recordingId),
        ['r-04', 'r-01', 'r-02', 'r-03'],
        'by mode, then sample order',
      );
      const page = await store.audio.listRecordings({ language: 'swh', mode: 'bantu_only', limit: 1, offset: 1 });
      assert.deepEqual([page.total, page.items.map((r) => r.recordingId)], [3, ['r-02']]);
      const capped = await store.audio.listRecordings({ language: 'swh', sampleCap: 2, limit: 10, offset: 0 });
      assert.deepEqual(
        capped.items.map((r) => r.recordingId),
        ['r-04', 'r-01', 'r-02'],
      );
      assert.equal(await store.audio.inSample('r-02', 2), true);
      assert.equal(await store.audio.inSample('r-03', 2), false);

      assert.deepEqual(await store.audio.coverage('swh'), [
        { language: 'swh', mode: 'bantu_english', clips: 1, speakers: 1, durationMs: 1200, synthetic: 0 },
        { language: 'swh', mode: 'bantu_only', clips: 3, speakers: 2, durationMs: 3600, synthetic: 1 },
      ]);
      assert.deepEqual([...(await store.audio.speakersPerLanguage())], [['swh', 2]]);

      const summary = await store.audio.consentSummary('swh');
      assert.deepEqual(
        summary.map((r) => [r.jurisdiction, r.status, r.speakers, r.clips]),
        [
          ['KE', 'active', 1, 2],
          ['TZ', 'active', 1, 2],
        ],
      );

      assert.equal(await store.audio.withdraw('bob', '2026-03-12T08:30:00.000Z'), 1);
      assert.equal(await store.audio.withdraw('bob', '2026-03-12T08:30:00.000Z'), 0);
      assert.equal(await store.audio.withdraw('nobody', '2026-03-12T08:30:00.000Z'), 0);
      assert.equal((await store.audio.getRecording('r-02'))?.consented, false);
      const after = await store.audio.listRecordings({ language: 'swh', limit: 10, offset: 0 });
      assert.deepEqual(
        after.items.map((r) => r.recordingId),
        ['r-01', 'r-03'],
      );
      assert.deepEqual(await store.audio.coverage(), [{ language: 'swh', mode: 'bantu_only', clips: 2, speakers: 1, durationMs: 2400, synthetic: 0 }]);
      const withdrawn = (await store.audio.consentSummary('swh')).find((r) => r.jurisdiction === 'TZ');
      assert.equal(withdrawn?.status, 'withdrawn');
      assert.equal(withdrawn?.withdrawnAt, '2026-03-12', 'only the day of a withdrawal');
    });

    it('refuses a second recording with the same checksum', async () => {
      const a = (await store.audio.speakerIdOf('alice'))!;
      const first = recording('r-dup-1', a);
      await store.audio.insertRecording(first);
      await assert.rejects(store.audio.insertRecording({ ...first, recordingId: 'r-dup-2' }));
    });

    it('remembers a counted range request per key, clip and day', async () => {
      assert.equal(await store.audio.rangeSeen('k1', 'r-01', '2026-03-10'), false);
      await store.audio.markRangeSeen('k1', 'r-01', '2026-03-10');
      await store.audio.markRangeSeen('k1', 'r-01', '2026-03-10');
      assert.equal(await store.audio.rangeSeen('k1', 'r-01', '2026-03-10'), true);
      assert.equal(await store.audio.rangeSeen('k1', 'r-01', '2026-03-11'), false);
      assert.equal(await store.audio.rangeSeen('k2', 'r-01', '2026-03-10'), false);
    });
  });
}

conformance('SQLite', undefined, async () => {
  const dir = tempDir('lugha-store-sqlite-');
  return { store: await openSqliteStore({ dataDir: dir }), close: async () => rmSync(dir, { recursive: true, force: true }) };
});

const pgSkip = skipUnless('PostgreSQL', postgresUp);
conformance('PostgreSQL', pgSkip, async () => {
  const db = await freshPostgresDatabase();
  return { store: await openPostgresStore({ url: db.url }), close: () => db.drop() };
});

describe('store: PostgreSQL migrations', { skip: pgSkip }, () => {
  it('runs once when several instances start together on an empty database', async () => {
    const db = await freshPostgresDatabase();
    try {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url: db.url, poolSize: 2 })));
      await stores[0]!.keys.create(key('k-mig'), secret('k-mig', 1));
      for (const s of stores) assert.equal((await s.keys.get('k-mig'))?.id, 'k-mig');
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await db.drop();
    }
  });

  it('reports an unreachable database without its URL or password', async () => {
    await assert.rejects(openPostgresStore({ url: 'postgres://lugha:hunter2@127.0.0.1:1/lugha' }), (error: Error) => {
      assert.match(error.message, /PostgreSQL store unavailable: connection refused/);
      assert.doesNotMatch(error.message, /hunter2|127\.0\.0\.1/);
      return true;
    });
  });
});
