/**
 * The demo corpus for `lugha serve --demo`: the numerals 1–10 of the languages in
 * reference/demo-numerals.yaml, in both modes, spelled by the language's numeral grammar
 * (languages/<iso>/numerals.yaml, with its sources; words listed in the YAML only for a
 * language without one), made from text at first start — with espeak-ng when it is
 * installed, otherwise as a synthetic signal (one tone burst per syllable) — and
 * ingested like any corpus. Every clip and its consent record say "synthetic":
 * these are machine-made demonstrations, never recordings of native speakers.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { packageRoot } from '../config.js';
import type { Services } from '../services.js';
import { INGEST_LOCK, ingest, type IngestReport } from './ingest.js';
import { decodeWav, encodeWav } from './wav.js';

export const DEMO_SPEAKER = 'lugha-demo-synthetic';
const RATE = 16_000;
const PAUSE_MS = 250;

interface DemoNumerals {
  english: string[];
  /** Per language the espeak-ng voice; `words` (with `source`) only where the cartridge has no numeral grammar. */
  languages: Record<string, { espeak_voice: string; source?: string; words?: string[] }>;
}

function readNumerals(): DemoNumerals {
  return parse(readFileSync(path.join(packageRoot, 'reference', 'demo-numerals.yaml'), 'utf8')) as DemoNumerals;
}

/** The counting words 1..count of `iso`: from its numeral grammar, else from the YAML's list. */
function numeralWords(services: Services, iso: string, listed: string[] | undefined, count: number): string[] {
  const found = services.numerals.speller(iso);
  if (found.ok) return Array.from({ length: count }, (_, i) => found.value.speller.spell(i + 1));
  if (listed && listed.length >= count) return listed.slice(0, count);
  throw new Error(`reference/demo-numerals.yaml: ${iso} has neither a numeral grammar nor ${count} listed words`);
}

/** Seeds the demo corpus unless it is there already; returns what was done. */
export async function ensureDemoCorpus(services: Services): Promise<{ created: boolean; clips: number; engine: 'espeak-ng' | 'tones'; report?: IngestReport }> {
  const existing = await services.store.audio.speakerIdOf(DEMO_SPEAKER);
  if (existing) return { created: false, clips: 0, engine: 'tones' };
  const dir = path.join(services.config.dataDir, 'demo-corpus');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const engine = hasEspeak() ? 'espeak-ng' : 'tones';
  const rows: string[] = [];
  const { english: englishWords, languages } = readNumerals();
  for (const [l, [iso, { espeak_voice: espeakVoice, words: listed }]] of Object.entries(languages).entries()) {
    for (const [i, word] of numeralWords(services, iso, listed, englishWords.length).entries()) {
      const numeral = i + 1;
      const bantu = speak(word, espeakVoice, engine, numeral + 40 * l);
      const english = speak(englishWords[i]!, 'en', engine, numeral + 20);
      const only = `${iso}-${numeral}-bantu_only.wav`;
      writeFileSync(path.join(dir, only), encodeWav(bantu, RATE));
      rows.push(JSON.stringify({ file: only, language: iso, mode: 'bantu_only', numeral, transcript: word, speaker: DEMO_SPEAKER, synthetic: true }));
      // The English part starts right after the pause: that join is the switch point.
      const pause = new Float32Array(Math.round((RATE * PAUSE_MS) / 1000));
      const mixed = concat([bantu, pause, english]);
      const switchMs = Math.round(((bantu.length + pause.length) * 1000) / RATE);
      const mix = `${iso}-${numeral}-bantu_english.wav`;
      writeFileSync(path.join(dir, mix), encodeWav(mixed, RATE));
      rows.push(
        JSON.stringify({
          file: mix,
          language: iso,
          mode: 'bantu_english',
          numeral,
          transcript: `${word} ${englishWords[i]}`,
          transcript_english: englishWords[i],
          switch_ms: switchMs,
          speaker: DEMO_SPEAKER,
          synthetic: true,
        }),
      );
    }
  }
  writeFileSync(path.join(dir, 'manifest.jsonl'), `${rows.join('\n')}\n`);
  writeFileSync(
    path.join(dir, 'consent.jsonl'),
    `${JSON.stringify({
      speaker: DEMO_SPEAKER,
      form_version: `synthetic-${engine}`,
      scopes: ['demonstration'],
      consented_on: services.clock.now().toISOString().slice(0, 10),
      jurisdiction: 'none (synthetic voice, no person recorded)',
    })}\n`,
  );
  const report = await ingest(dir, services, { lockFile: path.join(services.config.dataDir, INGEST_LOCK) });
  return { created: true, clips: report.ingested, engine, report };
}

function hasEspeak(): boolean {
  return spawnSync('espeak-ng', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Speech from espeak-ng (resampled to 16 kHz), or the tone fallback when that fails. */
function speak(text: string, voice: string, engine: 'espeak-ng' | 'tones', seed: number): Float32Array {
  if (engine === 'espeak-ng') {
    const run = spawnSync('espeak-ng', ['-v', voice, '--stdout', text], { maxBuffer: 1 << 26 });
    const pcm = run.status === 0 ? decodeWav(run.stdout) : undefined;
    if (pcm) return trimSilence(resample(pcm.samples, pcm.sampleRate, RATE));
  }
  return toneWord(text, seed);
}

/** One 140 ms tone burst per vowel group, pitch varying by word, with soft edges. */
function toneWord(text: string, seed: number): Float32Array {
  const syllables = Math.max(1, (text.match(/[aeiouy]+/gi) ?? []).length);
  const burst = Math.round(RATE * 0.14);
  const gap = Math.round(RATE * 0.03);
  const out = new Float32Array(syllables * (burst + gap));
  for (let s = 0; s < syllables; s++) {
    const freq = 180 + ((seed * 37 + s * 53) % 160);
    for (let i = 0; i < burst; i++) {
      const env = Math.min(1, i / 200, (burst - i) / 200);
      out[s * (burst + gap) + i] = 0.45 * env * (Math.sin((2 * Math.PI * freq * i) / RATE) + 0.3 * Math.sin((4 * Math.PI * freq * i) / RATE));
    }
  }
  return out;
}

function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples;
  const out = new Float32Array(Math.floor((samples.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const x = (i * from) / to;
    const j = Math.floor(x);
    out[i] = (samples[j] ?? 0) * (1 - (x - j)) + (samples[j + 1] ?? 0) * (x - j);
  }
  return out;
}

function trimSilence(samples: Float32Array): Float32Array {
  const loud = (v: number) => Math.abs(v) > 0.01;
  const start = samples.findIndex(loud);
  if (start < 0) return samples;
  let end = samples.length - 1;
  while (end > start && !loud(samples[end]!)) end--;
  return samples.subarray(start, end + 1);
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Read back for tests: the demo manifest rows. */
export function readDemoManifest(dataDir: string): Array<Record<string, unknown>> {
  return readFileSync(path.join(dataDir, 'demo-corpus', 'manifest.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
