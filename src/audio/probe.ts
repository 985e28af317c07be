/**
 * Reads what a clip is (format, duration, sample rate, channels) from its bytes
 * with music-metadata, and decodes it to PCM for switch-point detection: WAV in
 * TypeScript, other formats through ffmpeg when it is on PATH.
 */
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { decodeWav, type DecodedPcm } from './wav.js';

export const audioFormats = ['wav', 'flac', 'mp3', 'ogg', 'opus'] as const;
export type AudioFormat = (typeof audioFormats)[number];

/** Media type served for each stored format. */
export const contentTypes: Readonly<Record<AudioFormat, string>> = {
  wav: 'audio/wav',
  flac: 'audio/flac',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg; codecs=opus',
};

export interface AudioFacts {
  format: AudioFormat;
  durationMs: number;
  sampleRate: number;
  channels: number;
}

/** The clip's facts, or a message saying why it cannot be used. */
export async function probeAudio(file: string): Promise<{ ok: true; value: AudioFacts } | { ok: false; message: string }> {
  let meta;
  try {
    // Imported here, not at the top: music-metadata is about 40 modules that only ingestion needs (0.3 s of every start of `lugha mcp`).
    const { parseFile } = await import('music-metadata');
    meta = await parseFile(file, { duration: true, skipCovers: true });
  } catch (error) {
    return { ok: false, message: `not readable audio: ${(error as Error).message}` };
  }
  const { container = '', codec = '', duration, sampleRate, numberOfChannels } = meta.format;
  const format = formatOf(container, codec);
  if (!format) return { ok: false, message: `unsupported audio format "${container}${codec ? `/${codec}` : ''}" (WAV, FLAC, MP3, Ogg/Opus are)` };
  if (!duration || !sampleRate || !numberOfChannels) return { ok: false, message: 'duration, sample rate or channel count could not be read' };
  return { ok: true, value: { format, durationMs: Math.round(duration * 1000), sampleRate, channels: numberOfChannels } };
}

function formatOf(container: string, codec: string): AudioFormat | undefined {
  const c = container.toLowerCase();
  const k = codec.toLowerCase();
  if (c.includes('wave') || c === 'wav') return 'wav';
  if (c.includes('flac')) return 'flac';
  if (c.includes('mpeg') || k.includes('mpeg 1 layer 3') || k === 'mp3') return 'mp3';
  if (c.includes('ogg')) return k.includes('opus') ? 'opus' : 'ogg';
  return undefined;
}

/** Whether ffmpeg can be run. */
export function hasFfmpeg(): boolean {
  const probe = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  return probe.status === 0;
}

/** Mono PCM of the clip, or a message saying why it cannot be decoded here. */
export async function decodePcm(file: string, format: AudioFormat): Promise<{ ok: true; value: DecodedPcm } | { ok: false; message: string }> {
  if (format === 'wav') {
    const pcm = decodeWav(await readFile(file));
    if (pcm) return { ok: true, value: pcm };
  }
  if (!hasFfmpeg()) {
    return { ok: false, message: `switch_ms is missing and a ${format} clip can be decoded for pause detection only with ffmpeg, which is not on PATH; give switch_ms in the manifest or install ffmpeg` };
  }
  const run = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-ac', '1', '-f', 'wav', '-acodec', 'pcm_s16le', '-'], { maxBuffer: 1 << 30 });
  const pcm = run.status === 0 ? decodeWav(run.stdout) : undefined;
  return pcm ? { ok: true, value: pcm } : { ok: false, message: `ffmpeg could not decode the clip: ${run.stderr?.toString().trim().slice(0, 200)}` };
}
