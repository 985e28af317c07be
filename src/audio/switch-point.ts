/**
 * Proposes the switch point of a code-switch clip from its audio: the end of the
 * longest pause between speech (10 ms frames whose RMS stays 30 dB under the
 * loudest frame), i.e. where the second language starts.
 */

const FRAME_MS = 10;
const SILENCE_DB = -30;
/** Pauses shorter than this are gaps inside a word, not a switch. */
const MIN_PAUSE_MS = 80;

/** The switch point in ms, or undefined when the clip has no interior pause. */
export function detectSwitchMs(samples: Float32Array, sampleRate: number): number | undefined {
  const frame = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const count = Math.floor(samples.length / frame);
  if (count < 3) return undefined;
  const rms = new Float64Array(count);
  let peak = 0;
  for (let f = 0; f < count; f++) {
    let sum = 0;
    for (let i = f * frame; i < (f + 1) * frame; i++) sum += samples[i]! * samples[i]!;
    rms[f] = Math.sqrt(sum / frame);
    peak = Math.max(peak, rms[f]!);
  }
  if (peak === 0) return undefined;
  const threshold = peak * 10 ** (SILENCE_DB / 20);
  const loud = Array.from(rms, (v) => v > threshold);
  const first = loud.indexOf(true);
  const last = loud.lastIndexOf(true);
  let best: { start: number; end: number } | undefined;
  let runStart = -1;
  for (let f = first; f <= last; f++) {
    if (!loud[f]) {
      if (runStart < 0) runStart = f;
    } else if (runStart >= 0) {
      if (!best || f - runStart > best.end - best.start) best = { start: runStart, end: f };
      runStart = -1;
    }
  }
  if (!best || (best.end - best.start) * FRAME_MS < MIN_PAUSE_MS) return undefined;
  return best.end * FRAME_MS;
}
