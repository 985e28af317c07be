// Pins ingestion: switch points detected within 100 ms, consent and switch_ms checks, duplicates skipped, and an interrupted ingest rerun loses nothing and leaves nothing half-written.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ingest } from '../src/audio/ingest.js';
import { decodeWav } from '../src/audio/wav.js';
import { detectSwitchMs } from '../src/audio/switch-point.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { tone, toneSilenceTone, writeCorpus } from './audio-fixtures.js';

const run = promisify(execFile);
const bin = path.resolve('bin/lugha.js');

describe('switch-point detection', () => {
  for (const [first, second] of [
    [400, 600],
    [1200, 500],
    [250, 1500],
  ] as const) {
    it(`finds the switch of tone ${first} ms, 300 ms silence, tone ${second} ms within 100 ms`, () => {
      const { wav, switchMs } = toneSilenceTone(first, 300, second);
      const pcm = decodeWav(wav)!;
      const found = detectSwitchMs(pcm.samples, pcm.sampleRate);
      assert.ok(found !== undefined && Math.abs(found - switchMs) <= 100, `expected ~${switchMs}, got ${found}`);
    });
  }
  it('proposes nothing for a clip without a pause', () => {
    const pcm = decodeWav(tone(800, 300))!;
    assert.equal(detectSwitchMs(pcm.samples, pcm.sampleRate), undefined);
  });
});

describe('ingest', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('ingests consented clips, detects a missing switch point, refuses the rest, skips duplicates', async () => {
    const dir = tempDir('lugha-corpus-');
    const mixed = toneSilenceTone(700, 300, 600);
    writeCorpus(
      dir,
      [
        { file: 'a.wav', language: 'sw', mode: 'bantu_only', numeral: 1, transcript: 'moja', speaker: 'amina', wav: tone(500, 330) },
        { file: 'b.wav', language: 'swh', mode: 'bantu_english', numeral: 2, transcript: 'mbili two', speaker: 'amina', wav: mixed.wav },
        { file: 'c.wav', language: 'swh', mode: 'bantu_only', numeral: 3, transcript: 'tatu', speaker: 'nobody', wav: tone(500, 350) },
        { file: 'd.wav', language: 'swh', mode: 'bantu_english', numeral: 4, transcript: 'nne four', speaker: 'amina', switch_ms: 5000, wav: toneSilenceTone(300, 300, 300, 500).wav },
      ],
      ['amina'],
    );
    const report = await ingest(dir, h.services);
    assert.equal(report.ingested, 2);
    assert.equal(report.detectedSwitches, 1);
    assert.deepEqual(
      report.refused.map((r) => r.file),
      ['c.wav', 'd.wav'],
    );
    assert.match(report.refused[0]!.reason, /no active consent/);
    assert.match(report.refused[1]!.reason, /outside \(0, 900\)/);
    const listed = await h.services.store.audio.listRecordings({ language: 'swh', limit: 10, offset: 0 });
    const b = listed.items.find((r) => r.numeral === 2)!;
    assert.equal(b.switchDetected, true);
    assert.ok(Math.abs(b.switchMs! - mixed.switchMs) <= 100);
    assert.equal(b.durationMs, 1600);
    assert.equal(b.sampleRate, 16000);
    assert.equal(b.format, 'wav');
    assert.match(b.recordingId, /^rec_[A-Za-z0-9_-]{22}$/);

    const again = await ingest(dir, h.services);
    assert.equal(again.ingested, 0);
    assert.equal(again.duplicates, 2);
  });

  it('refuses to run beside another ingest on the same data directory, and takes over a stale lock', async () => {
    const dir = tempDir('lugha-corpus-');
    writeCorpus(dir, [{ file: 'a.wav', language: 'swh', mode: 'bantu_only', numeral: 5, transcript: 'tano', speaker: 'juma', wav: tone(400, 370) }], ['juma']);
    const lockFile = path.join(h.dataDir, 'ingest.lock');
    writeFileSync(lockFile, String(process.pid)); // a live process holds it
    await assert.rejects(ingest(dir, h.services, { lockFile }), /another ingest is running on this data directory \(process \d+\)/);
    writeFileSync(lockFile, '2147483646'); // no such process: a crashed ingest left it
    const report = await ingest(dir, h.services, { lockFile });
    assert.equal(report.ingested, 1);
    assert.deepEqual(
      readdirSync(h.dataDir).filter((f) => f === 'ingest.lock'),
      [],
      'the lock is released',
    );
  });

  it('reads a CSV manifest and consent file (quoted fields, ; scopes) given as the manifest path', async () => {
    const dir = tempDir('lugha-corpus-');
    writeFileSync(path.join(dir, 'one.wav'), tone(400, 777));
    writeFileSync(path.join(dir, 'two.wav'), toneSilenceTone(500, 300, 500, 610).wav);
    writeFileSync(
      path.join(dir, 'manifest.csv'),
      'file,language,mode,numeral,transcript,transcript_english,switch_ms,speaker\r\n' +
        'one.wav,xh,bantu_only,1,"kunye, one",,,"csv ""speaker"""\r\n' +
        'two.wav,xho,bantu_english,2,kubili two,two,800,"csv ""speaker"""\r\n',
    );
    writeFileSync(path.join(dir, 'consent.csv'), 'speaker,form_version,scopes,consented_on,jurisdiction\n"csv ""speaker""",v1,research;tts,2026-02-01,ZA\n');
    const report = await ingest(path.join(dir, 'manifest.csv'), h.services);
    assert.deepEqual(report.refused, []);
    assert.equal(report.ingested, 2);
    const consents = await h.services.store.audio.listConsents();
    const csv = consents.find((c) => c.localId === 'csv "speaker"')!;
    assert.deepEqual(csv.scopes, ['research', 'tts']);
    const rows = (await h.services.store.audio.listRecordings({ language: 'xho', limit: 10, offset: 0 })).items;
    assert.ok(rows.some((r) => r.transcript === 'kunye, one'));
    assert.ok(rows.some((r) => r.switchMs === 800 && !r.switchDetected && r.transcriptEnglish === 'two'));
  });

  it('after a crash between blob and row, a rerun removes the orphan and ingests every clip once', async () => {
    const dir = tempDir('lugha-corpus-');
    writeCorpus(
      dir,
      [1, 2, 3].map((i) => ({ file: `z${i}.wav`, language: 'zul', mode: 'bantu_only' as const, numeral: i, transcript: `z${i}`, speaker: 'thandi', wav: tone(400, 600 + i * 13) })),
      ['thandi'],
    );
    let calls = 0;
    await assert.rejects(
      ingest(dir, h.services, {
        afterBlob: () => {
          if (++calls === 2) throw new Error('simulated crash');
        },
      }),
      /simulated crash/,
    );
    assert.equal((await h.services.store.audio.listRecordings({ language: 'zul', limit: 10, offset: 0 })).total, 1);
    const blobsBefore = (await h.services.blobs.list()).length;
    const rerun = await ingest(dir, h.services);
    assert.equal(rerun.orphansRemoved, 1);
    assert.equal(rerun.ingested, 2);
    assert.equal(rerun.duplicates, 1);
    const zul = await h.services.store.audio.listRecordings({ language: 'zul', limit: 10, offset: 0 });
    assert.deepEqual(zul.items.map((r) => r.numeral).sort(), [1, 2, 3]);
    const shas = await h.services.store.audio.allShas();
    const blobs = await h.services.blobs.list();
    assert.equal(blobs.length, blobsBefore + 1);
    assert.ok(
      blobs.every((b) => shas.has(b)),
      'every blob has its row',
    );
    assert.ok(
      [...shas].every((s) => blobs.includes(s)),
      'every row has its blob',
    );
  });
});

describe('lugha ingest killed mid-run', () => {
  it('leaves no partial record and loses nothing once rerun', async () => {
    const dataDir = tempDir();
    const dir = tempDir('lugha-corpus-');
    const clips = Array.from({ length: 40 }, (_, i) => ({
      file: `k${i}.wav`,
      language: 'swh',
      mode: 'bantu_english' as const,
      numeral: i,
      transcript: `k${i}`,
      speaker: 'kill-test',
      // No switch_ms: each clip is decoded for pause detection, so the run takes a while.
      wav: toneSilenceTone(2000, 300, 2000, 200 + i * 3).wav,
    }));
    writeCorpus(dir, clips, ['kill-test']);
    const child = spawn(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/\[5\/40\]/.test(stderr) && child.exitCode === null) child.kill('SIGKILL');
      });
      child.on('exit', () => resolve());
    });
    assert.match(stderr, /\[5\/40\]/);
    assert.doesNotMatch(stderr, /\[40\/40\]/, 'killed before the end');
    const rerun = await run(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir, '--json']);
    const report = JSON.parse(rerun.stdout) as { ingested: number; duplicates: number; refused: unknown[] };
    assert.equal(report.ingested + report.duplicates, 40);
    assert.ok(report.duplicates >= 5);
    assert.deepEqual(report.refused, []);
    const h = await harness({ flags: { dataDir } });
    try {
      const listed = await h.services.store.audio.listRecordings({ language: 'swh', limit: 100, offset: 0 });
      assert.deepEqual(
        listed.items.map((r) => r.numeral).sort((a, b) => a - b),
        clips.map((c) => c.numeral),
      );
      const blobs = await h.services.blobs.list();
      assert.equal(blobs.length, 40);
      const shas = await h.services.store.audio.allShas();
      assert.ok(blobs.every((b) => shas.has(b)));
      assert.equal(await h.services.blobs.cleanTemporary(), 0, 'no temporary file left');
    } finally {
      await h.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lugha ingest and consent (CLI)', () => {
  it('ingests with progress on stderr, lists and withdraws consent', async () => {
    const dataDir = tempDir();
    const dir = tempDir('lugha-corpus-');
    writeCorpus(dir, [{ file: 'a.wav', language: 'zu', mode: 'bantu_only', numeral: 1, transcript: 'kunye', speaker: 'sipho', wav: tone(300, 440) }], ['sipho']);
    const out = await run(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir]);
    assert.match(out.stderr, /\[1\/1\] a\.wav: ingested/);
    assert.match(out.stdout, /ingested 1 clip/);
    const list = await run(process.execPath, [bin, 'consent', 'list', '--json', '--data-dir', dataDir]);
    assert.equal(JSON.parse(list.stdout)[0].status, 'active');
    const withdraw = await run(process.execPath, [bin, 'consent', 'withdraw', '--speaker', 'sipho', '--data-dir', dataDir]);
    assert.match(withdraw.stdout, /withdrew 1/);
    const after = await run(process.execPath, [bin, 'consent', 'list', '--json', '--data-dir', dataDir]);
    assert.equal(JSON.parse(after.stdout)[0].status, 'withdrawn');
    writeFileSync(path.join(dir, 'manifest.jsonl'), '{"file": "a.wav"\n');
    await assert.rejects(run(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir]), /not valid JSON/);
    assert.ok(readdirSync(dataDir).includes('blobs'));
  });
});
