/**
 * The analysers' frames on disk. Building a language's analysis frames generates every cell
 * of its paradigm with placeholder roots (seconds per language, about a minute for all); the
 * result depends only on the cartridge's files and the engine's code, so it is built once and
 * kept as `<dir>/<iso>.<js|ts>.<hash>.jsonl`, where the hash covers both (compiled and source runs
 * of the engine keep separate files). The file is JSON lines of at most a few thousand entries
 * each, so a server can read it in slices without holding the event loop. A changed cartridge or engine
 * gives a new hash and the stale file is replaced; an unreadable or foreign file is ignored.
 * Writes are atomic (temporary file + rename), so concurrent processes never read half a file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Analyzer, AnalyzerIndex } from './analyzer.js';

let engineHash: string | undefined;

/** A hash of the engine's own code (this folder's modules, and the cartridge loader's in ../cartridge): frames built by other code are not reused. */
function engineFingerprint(): string {
  if (engineHash) return engineHash;
  const here = path.dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const dir of [here, path.join(here, '..', 'cartridge')]) {
    for (const name of readdirSync(dir).filter((n) => /\.(js|ts)$/.test(n) && !n.endsWith('.d.ts')).sort()) {
      hash.update(name).update('\0').update(readFileSync(path.join(dir, name))).update('\0');
    }
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

/** Entries a line of the file holds: lines are parsed one at a time, so a reader can yield between them. */
const CHUNK = 2000;

/** The index as lines: a header (cells, shapes), then chunks of frames, keys and lexical entries, each tagged. */
function* linesOf(index: AnalyzerIndex): Generator<string> {
  yield JSON.stringify({ cells: index.cells, shapes: index.shapes });
  for (const [tag, list] of [['f', index.frames], ['k', index.keys], ['l', index.lexical]] as const) {
    for (let i = 0; i < list.length; i += CHUNK) yield JSON.stringify([tag, list.slice(i, i + CHUNK)]);
  }
}

/** Parses the lines back into an index, yielding after each line; undefined for a file that is not one. */
function* indexOf(text: string): Generator<void, AnalyzerIndex | undefined> {
  const lines = text.split('\n');
  const header = JSON.parse(lines[0] ?? '') as Pick<AnalyzerIndex, 'cells' | 'shapes'>;
  if (typeof header.cells !== 'number' || !Array.isArray(header.shapes)) return undefined;
  const index: AnalyzerIndex = { cells: header.cells, shapes: header.shapes, frames: [], keys: [], lexical: [] };
  const lists = { f: index.frames, k: index.keys, l: index.lexical } as Record<string, unknown[]>;
  for (let n = 1; n < lines.length; n++) {
    if (!lines[n]) continue;
    const [tag, chunk] = JSON.parse(lines[n]!) as [string, unknown[]];
    const list = lists[tag];
    if (!list || !Array.isArray(chunk)) return undefined;
    for (const entry of chunk) list.push(entry);
    yield;
  }
  return index;
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FrameCache {
  constructor(readonly dir: string) {}

  #file(iso: string, cartridgeDir: string): string {
    return path.join(this.dir, `${iso}.${flavour}.${frameKey(cartridgeDir)}.jsonl`);
  }

  #read(iso: string, cartridgeDir: string): string | undefined {
    try {
      return readFileSync(this.#file(iso, cartridgeDir), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Loads the analyser's frames from disk at once; false when there is no usable file. */
  load(iso: string, cartridgeDir: string, analyzer: Analyzer): boolean {
    const text = this.#read(iso, cartridgeDir);
    if (text === undefined) return false;
    try {
      const steps = indexOf(text);
      let step = steps.next();
      while (!step.done) step = steps.next();
      return step.value !== undefined && analyzer.importIndex(step.value);
    } catch {
      return false;
    }
  }

  /** Loads the frames in slices that yield to the event loop (a server warming up keeps answering). */
  async loadInBackground(iso: string, cartridgeDir: string, analyzer: Analyzer, sliceMs = 20): Promise<boolean> {
    const text = this.#read(iso, cartridgeDir);
    if (text === undefined) return false;
    try {
      const steps = indexOf(text);
      let step = steps.next();
      let sliceStart = performance.now();
      while (!step.done) {
        if (performance.now() - sliceStart >= sliceMs) {
          await pause();
          sliceStart = performance.now();
        }
        step = steps.next();
      }
      return step.value !== undefined && (await analyzer.importIndexInBackground(step.value, sliceMs));
    } catch {
      return false;
    }
  }

  /** Writes the analyser's (built) frames; returns false when the folder is not writable (the cache is an optimisation). */
  save(iso: string, cartridgeDir: string, analyzer: Analyzer): boolean {
    return this.#write(iso, cartridgeDir, [...linesOf(analyzer.exportIndex())]);
  }

  /** `save`, serialising a chunk at a time with yields between slices. */
  async saveInBackground(iso: string, cartridgeDir: string, analyzer: Analyzer, sliceMs = 20): Promise<boolean> {
    const lines: string[] = [];
    let sliceStart = performance.now();
    for (const line of linesOf(analyzer.exportIndex())) {
      lines.push(line);
      if (performance.now() - sliceStart >= sliceMs) {
        await pause();
        sliceStart = performance.now();
      }
    }
    return this.#write(iso, cartridgeDir, lines);
  }

  #write(iso: string, cartridgeDir: string, lines: string[]): boolean {
    const file = this.#file(iso, cartridgeDir);
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temporary, `${lines.join('\n')}\n`);
      renameSync(temporary, file);
      // Frames of older versions of this cartridge or engine are dead weight.
      for (const name of readdirSync(this.dir)) {
        if (name.startsWith(`${iso}.${flavour}.`) && path.join(this.dir, name) !== file && !name.endsWith('.tmp')) rmSync(path.join(this.dir, name), { force: true });
      }
      return true;
    } catch {
      rmSync(temporary, { force: true });
      return false;
    }
  }
}
