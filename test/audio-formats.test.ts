// Pins ingestion of FLAC, MP3, Ogg/Vorbis and Ogg/Opus clips: their facts are read, and a missing switch point is found through ffmpeg.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingest } from '../src/audio/ingest.js';
import { hasFfmpeg } from '../src/audio/probe.js';
import { toneSilenceTone, writeCorpus, type ClipSpec } from './audio-fixtures.js';
import { skipOrFailInCi } from './environment.js';
import { harness, tempDir, type Harness } from './helpers.js';

// .ci/run installs ffmpeg; on a developer machine without it the formats cannot be made, so the suite says so.
const skip = hasFfmpeg() ? false : skipOrFailInCi('ffmpeg is not installed (Debian package ffmpeg)');

const formats = [
  { ext: 'flac', args: ['-c:a', 'flac'], format: 'flac' },
  { ext: 'mp3', args: ['-c:a', 'libmp3lame', '-b:a', '64k'], format: 'mp3' },
  { ext: 'ogg', args: ['-c:a', 'libvorbis', '-q:a', '3'], format: 'ogg' },
  { ext: 'opus', args: ['-c:a', 'libopus', '-b:a', '32k'], format: 'opus' },
] as const;

describe('ingesting compressed formats', { skip }, () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('reads duration, sample rate and format, and detects the switch point within 100 ms', async () => {
    const dir = tempDir('lugha-formats-');
    const source = toneSilenceTone(800, 300, 700, 440);
    const wavFile = path.join(dir, 'source.wav');
    writeFileSync(wavFile, source.wav);
    const clips: ClipSpec[] = formats.map((f, i) => {
      const out = path.join(dir, `mix.${f.ext}`);
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wavFile, '-af', `volume=${1 - i * 0.05}`, ...f.args, out]);
      return { file: `mix.${f.ext}`, language: 'zul', mode: 'bantu_english', numeral: i + 1, transcript: `${i + 1}`, speaker: 'thandi', wav: readFileSync(out) };
    });
    writeCorpus(dir, clips, ['thandi']);
    const report = await ingest(dir, h.services);
    assert.deepEqual(report.refused, []);
    assert.equal(report.ingested, formats.length);
    assert.equal(report.detectedSwitches, formats.length);
    const listed = await h.services.store.audio.listRecordings({ language: 'zul', limit: 10, offset: 0 });
    for (const f of formats) {
      const clip = listed.items.find((r) => r.format === f.format);
      assert.ok(clip, `a ${f.format} clip was stored`);
      assert.ok(Math.abs(clip.durationMs - 1800) <= 80, `${f.format}: duration ${clip.durationMs} ms`);
      assert.equal(clip.switchDetected, true);
      assert.ok(Math.abs(clip.switchMs! - source.switchMs) <= 100, `${f.format}: switch ${clip.switchMs} ms, expected ${source.switchMs}`);
    }
  });
});
