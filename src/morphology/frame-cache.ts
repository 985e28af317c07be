/**
 * The analysers' frames on disk. Building a language's analysis frames generates every cell
 * of its paradigm with placeholder roots (seconds per language, about a minute for all); the
 * result depends only on the cartridge's files and the engine's code, so it is built once and
 * kept as `<dir>/<iso>.<js|ts>.<hash>.frames`, where the hash covers both (compiled and source runs
 * of the engine keep separate files). The file is the analyser's packed frames as they sit in
 * memory (src/morphology/packed-frames.ts: a few arrays and one string, copied in, no parsing),
 * with the lexical index in its header. A changed cartridge or engine
 * gives a new hash and the stale file is replaced; an unreadable or foreign file is ignored.
 * Writes are atomic (temporary file + rename), so concurrent processes never read half a file.
 * The hash is made from the `folderDigest` of the cartridge as it was read (taken by the loader,
 * src/cartridge/cache.ts, before and after the read), not from the folder at save time: a
 * cartridge edited between its read and the save of its frames would otherwise have frames of the
 * old content stored under the new content's key. A cartridge whose read saw an edit has no digest,
 * and its frames are built and not saved.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { modulesDigest, replaceCacheFile, seededKey } from '../file-digest.js';
import type { Analyzer } from './analyzer.js';

let engineHash: string | undefined;

/** A hash of the engine's own code (this folder's modules, and the cartridge loader's in ../cartridge): frames built by other code are not reused. */
function engineFingerprint(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  engineHash ??= modulesDigest([here, path.join(here, '..', 'cartridge')]);
  return engineHash;
}

/** Whether the engine runs compiled (dist/) or from source (tsx). */
const flavour = path.extname(fileURLToPath(import.meta.url)).slice(1);

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FrameCache {
  constructor(readonly dir: string) {}

  /** `digest`: the `folderDigest` of the cartridge the analyser was built from. */
  #file(iso: string, digest: string): string {
    return path.join(this.dir, `${iso}.${flavour}.${seededKey(engineFingerprint(), digest)}.frames`);
  }

  #read(iso: string, digest: string): Buffer | undefined {
    try {
      return readFileSync(this.#file(iso, digest));
    } catch {
      return undefined;
    }
  }

  /** Loads the analyser's frames from disk at once; false when there is no usable file. `digest`: the `folderDigest` of the cartridge as the analyser's generator read it. */
  load(iso: string, digest: string, analyzer: Analyzer): boolean {
    const buffer = this.#read(iso, digest);
    if (buffer === undefined) return false;
    try {
      return analyzer.importIndex(buffer);
    } catch {
      return false;
    }
  }

  /** Loads the frames without holding the event loop (the file read off the loop, the lexical index in slices). */
  async loadInBackground(iso: string, digest: string, analyzer: Analyzer, sliceMs = 20): Promise<boolean> {
    let buffer: Buffer;
    try {
      buffer = await readFile(this.#file(iso, digest));
    } catch {
      return false;
    }
    try {
      return await analyzer.importIndexInBackground(buffer, sliceMs);
    } catch {
      return false;
    }
  }

  /** Writes the analyser's (built) frames; returns false when the folder is not writable (the cache is an optimisation). */
  save(iso: string, digest: string, analyzer: Analyzer): boolean {
    return this.#write(iso, digest, analyzer.exportIndex());
  }

  /** `save`, after a turn of the event loop (packing is one step of a few hundred milliseconds at most). */
  async saveInBackground(iso: string, digest: string, analyzer: Analyzer): Promise<boolean> {
    await pause();
    return this.#write(iso, digest, analyzer.exportIndex());
  }

  #write(iso: string, digest: string, data: Buffer): boolean {
    // Frames of older versions of this cartridge or engine are dead weight.
    return replaceCacheFile(this.#file(iso, digest), data, `${iso}.${flavour}.`);
  }
}
