/** Audio test fixtures: synthetic WAV clips with a known switch point, and a corpus folder. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeWav } from '../src/audio/wav.js';

export const RATE = 16_000;

/** Tone, silence, tone; the switch point is where the second tone starts. */
export function toneSilenceTone(firstMs: number, pauseMs: number, secondMs: number, freq = 440): { wav: Buffer; switchMs: number } {
  const n = (ms: number) => Math.round((RATE * ms) / 1000);
  const samples = new Float32Array(n(firstMs) + n(pauseMs) + n(secondMs));
  for (let i = 0; i < n(firstMs); i++) samples[i] = 0.5 * Math.sin((2 * Math.PI * freq * i) / RATE);
  const start = n(firstMs) + n(pauseMs);
  for (let i = 0; i < n(secondMs); i++) samples[start + i] = 0.4 * Math.sin((2 * Math.PI * freq * 1.5 * i) / RATE);
  // A little noise in the pause, as in a real room.
  for (let i = n(firstMs); i < start; i++) samples[i] = (Math.random() - 0.5) * 0.002;
  return { wav: encodeWav(samples, RATE), switchMs: firstMs + pauseMs };
}

export function tone(ms: number, freq: number): Buffer {
  const samples = new Float32Array(Math.round((RATE * ms) / 1000));
  for (let i = 0; i < samples.length; i++) samples[i] = 0.5 * Math.sin((2 * Math.PI * freq * i) / RATE);
  return encodeWav(samples, RATE);
}

export interface ClipSpec {
  file: string;
  language: string;
  mode: 'bantu_only' | 'bantu_english';
  numeral: number;
  transcript: string;
  speaker: string;
  switch_ms?: number;
  wav: Buffer;
}

/** Writes clips, manifest.jsonl and consent.jsonl (one consent per speaker in `consented`) to `dir`. */
export function writeCorpus(dir: string, clips: ClipSpec[], consented: string[]): void {
  for (const c of clips) writeFileSync(path.join(dir, c.file), c.wav);
  writeFileSync(path.join(dir, 'manifest.jsonl'), clips.map(({ wav: _wav, ...row }) => JSON.stringify(row)).join('\n') + '\n');
  writeFileSync(
    path.join(dir, 'consent.jsonl'),
    consented.map((speaker) => JSON.stringify({ speaker, form_version: 'v2', scopes: ['research', 'commercial-training'], consented_on: '2026-01-15', jurisdiction: 'KE' })).join('\n') + '\n',
  );
}

/** Ten clips per mode for a language, each distinct (different tone), speakers s1 and s2. */
export function numeralClips(language: string, base: number): ClipSpec[] {
  const clips: ClipSpec[] = [];
  for (let i = 1; i <= 10; i++) {
    clips.push({ file: `${language}-only-${i}.wav`, language, mode: 'bantu_only', numeral: i, transcript: `n${i}`, speaker: i % 2 ? `${language}-s1` : `${language}-s2`, wav: tone(300, base + i * 7) });
    const mixed = toneSilenceTone(300, 200, 300, base + i * 11);
    clips.push({
      file: `${language}-mix-${i}.wav`,
      language,
      mode: 'bantu_english',
      numeral: i,
      transcript: `n${i} ${i}`,
      speaker: i % 2 ? `${language}-s1` : `${language}-s2`,
      switch_ms: mixed.switchMs,
      wav: mixed.wav,
    });
  }
  return clips;
}
