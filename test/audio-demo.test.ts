// Pins the demo corpus: numerals 1–10 for Swahili and Zulu in both modes, labelled synthetic everywhere, with real switch points, seeded once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_SPEAKER, ensureDemoCorpus, readDemoManifest } from '../src/audio/demo-corpus.js';
import { detectSwitchMs } from '../src/audio/switch-point.js';
import { decodeWav } from '../src/audio/wav.js';
import { harness, type Harness } from './helpers.js';

describe('demo corpus', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('seeds 40 synthetic clips once, labelled synthetic in card and manifest', async () => {
    const first = await ensureDemoCorpus(h.services);
    assert.equal(first.created, true);
    assert.equal(first.clips, 40, JSON.stringify(first.report?.refused));
    assert.equal((await ensureDemoCorpus(h.services)).created, false);
    const voices = (await h.call(undefined, '/api/audio/voices')).json();
    assert.deepEqual(
      voices.languages.map((l: { language: string; clips: number; synthetic_clips: number }) => [l.language, l.clips, l.synthetic_clips]),
      [
        ['swh', 20, 20],
        ['zul', 20, 20],
      ],
    );
    const card = await h.call(undefined, '/api/audio/zul/dataset-card');
    assert.match(card.body, /synthetic/i);
    assert.match(card.body, /not recordings of native speakers/);
    const manifest = (await h.call(undefined, '/api/audio/swh/consent-manifest')).json();
    assert.match(manifest.synthetic_note, /not recordings of native speakers/);
    assert.equal(manifest.consent_records[0].synthetic, true);
    const rows = readDemoManifest(h.dataDir);
    assert.ok(rows.every((r) => r.synthetic === true && r.speaker === DEMO_SPEAKER));
    assert.deepEqual(
      rows
        .filter((r) => r.language === 'zul' && r.mode === 'bantu_only')
        .map((r) => r.transcript)
        .slice(0, 3),
      ['kunye', 'kubili', 'kuthathu'],
    );
  });

  it('gives each code-switch clip the switch point where the English part was joined', async () => {
    const { key } = await h.issue('startup', 'full');
    const clips = (await h.call(key, '/api/audio/swh/audio?mode=bantu_english&n=10')).json().data;
    assert.equal(clips.length, 10);
    for (const clip of clips) {
      assert.ok(clip.switch_ms > 0 && clip.switch_ms < clip.duration_ms);
      assert.equal(clip.switch_ms_detected, false);
      assert.equal(clip.synthetic, true);
      const audio = await h.call(key, clip.url);
      const pcm = decodeWav(audio.rawPayload)!;
      const found = detectSwitchMs(pcm.samples, pcm.sampleRate)!;
      assert.ok(Math.abs(found - clip.switch_ms) <= 100, `${clip.transcript}: ${found} vs ${clip.switch_ms}`);
    }
  });
});
