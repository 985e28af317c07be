/**
 * The analysers' frames on disk. Building a language's analysis frames generates every cell
 * of its paradigm with placeholder roots (seconds per language, about a minute for all); the
 * result depends only on the cartridge's files and the engine's code, so it is built once and
 * kept as `<dir>/<iso>.<js|ts>.<hash>.json`, where the hash covers both (compiled and source runs
 * of the engine keep separate files). A changed cartridge or engine
 * gives a new hash and the stale file is replaced; an unreadable or foreign file is ignored.
 * Writes are atomic (temporary file + rename), so concurrent processes never read half a file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Analyzer, AnalyzerIndex } from './analyzer.js';

let engineHash: string | undefined;

/** A hash of the engine's own code (this folder's modules): frames built by other code are not reused. */
function engineFingerprint(): string {
  if (engineHash) return engineHash;
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).filter((n) => /\.(js|ts)$/.test(n) && !n.endsWith('.d.ts')).sort()) {
    hash.update(name).update('\0').update(readFileSync(path.join(dir, name))).update('\0');
  }
  engineHash = hash.digest('hex');
  return engineHash;
}

/** The cache key of a cartridge folder: its files' names and bytes, and the engine's code. */
export function frameKey(cartridgeDir: string): string {
  const hash = createHash('sha256').update(engineFingerprint());
  for (const name of readdirSync(cartridgeDir).sort()) {
    const file = path.join(cartridgeDir, name);
    if (!statSync(file).isFile()) continue;
    hash.update(name).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

/** Whether the engine runs compiled (dist/) or from source (tsx). */
const flavour = path.extname(fileURLToPath(import.meta.url)).slice(1);

export class FrameCache {
  constructor(readonly dir: string) {}

  #file(iso: string, cartridgeDir: string): string {
    return path.join(this.dir, `${iso}.${flavour}.${frameKey(cartridgeDir)}.json`);
  }

  /** Loads the analyser's frames from disk; false when there is no usable file. */
  load(iso: string, cartridgeDir: string, analyzer: Analyzer): boolean {
    let text: string;
    try {
      text = readFileSync(this.#file(iso, cartridgeDir), 'utf8');
    } catch {
      return false;
    }
    try {
      return analyzer.importIndex(JSON.parse(text) as AnalyzerIndex);
    } catch {
      return false;
    }
  }

  /** Writes the analyser's (built) frames; returns false when the folder is not writable (the cache is an optimisation). */
  save(iso: string, cartridgeDir: string, analyzer: Analyzer): boolean {
    const file = this.#file(iso, cartridgeDir);
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temporary, JSON.stringify(analyzer.exportIndex()));
      renameSync(temporary, file);
      // Frames of older versions of this cartridge or engine are dead weight.
      for (const name of readdirSync(this.dir)) {
        if (name.startsWith(`${iso}.${flavour}.`) && name.endsWith('.json') && path.join(this.dir, name) !== file) rmSync(path.join(this.dir, name), { force: true });
      }
      return true;
    } catch {
      rmSync(temporary, { force: true });
      return false;
    }
  }
}
