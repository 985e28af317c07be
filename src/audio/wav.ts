/**
 * RIFF/WAVE in TypeScript: encode mono 16-bit PCM (demo corpus, tests) and decode
 * PCM or 32-bit float WAV to mono samples in [-1, 1] (switch-point detection).
 */

/** Mono 16-bit PCM WAV bytes for samples in [-1, 1]. */
export function encodeWav(samples: Float32Array, sampleRate: number): Buffer {
  const data = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]!));
    data.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export interface DecodedPcm {
  sampleRate: number;
  /** Mono (channels averaged), in [-1, 1]. */
  samples: Float32Array;
}

/** Decodes a PCM (8/16/24/32-bit) or IEEE float WAV; undefined when it is not one. */
export function decodeWav(bytes: Buffer): DecodedPcm | undefined {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let offset = 12;
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let data: Buffer | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = bytes.subarray(offset + 8, Math.min(bytes.length, offset + 8 + size));
    if (id === 'fmt ' && body.length >= 16) {
      format = body.readUInt16LE(0);
      channels = body.readUInt16LE(2);
      sampleRate = body.readUInt32LE(4);
      bits = body.readUInt16LE(14);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (format === 0xfffe && body.length >= 26) format = body.readUInt16LE(24);
    } else if (id === 'data') {
      data = body;
    }
    offset += 8 + size + (size % 2);
  }
  if (!data || channels < 1 || sampleRate < 1) return undefined;
  const width = bits / 8;
  const float = format === 3;
  if (!(format === 1 || (float && bits === 32)) || ![1, 2, 3, 4].includes(width)) return undefined;
  const frames = Math.floor(data.length / (width * channels));
  const samples = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) {
      const at = (f * channels + c) * width;
      let v: number;
      if (float) v = data.readFloatLE(at);
      else if (width === 1) v = (data.readUInt8(at) - 128) / 128;
      else if (width === 2) v = data.readInt16LE(at) / 32768;
      else if (width === 3) v = data.readIntLE(at, 3) / 8388608;
      else v = data.readInt32LE(at) / 2147483648;
      sum += v;
    }
    samples[f] = sum / channels;
  }
  return { sampleRate, samples };
}
