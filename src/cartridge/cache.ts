/**
 * Parsed and validated cartridges on disk. Reading a cartridge parses its YAML files and validates
 * them with zod (and its phonology.yaml, src/morphology/phonology.ts): tens to hundreds of
 * milliseconds per language, about one second for the first cartridge of a process (the YAML
 * parser's code not yet optimised), a second and a half for all of them. The result depends only
 * on the cartridge folder's files and the loader's code, and JSON holds it exactly (plain objects,
 * arrays, strings, finite numbers and booleans; the parts a cartridge lacks are left out and put
 * back as undefined), so it is kept as `<dir>/<iso>.<js|ts>.<hash>.json`, read back with one
 * `JSON.parse` (a few milliseconds for the largest cartridge). The hash covers every file of the
 * cartridge folder (names and bytes, src/file-digest.ts) and the loader's modules, so a changed
 * cartridge or loader is never served from a stale file: it is read from YAML again and the file
 * replaced. Built by `npm run build:frames` (scripts/build-frames.mjs) next to the analysis frames,
 * else by the first run that reads the cartridge; an unreadable or foreign file is ignored, and a
 * folder that cannot be written only costs the YAML read. Writes are atomic (temporary file +
 * rename). A malformed cartridge throws as `loadCartridge` does and writes nothing.
 *
 * The key is taken from the folder before its YAML is read and again after: a cartridge edited
 * while it was being read is not written (the next run reads it again), so a file always holds the
 * content its key describes. The loaded cartridge carries that digest (`digest`) for the caches
 * built from it (the analysis frames, src/morphology/frame-cache.ts); it is undefined when the
 * folder changed during the read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderDigest, modulesDigest, replaceCacheFile, seededKey } from '../file-digest.js';
import { loadPhonology, type Phonology } from '../morphology/phonology.js';
import { loadCartridge, type Cartridge } from './cartridge.js';

/** Bumped when the file's layout changes. */
const FORMAT = 1;

/** The parts of a loaded cartridge besides its folder, in `loadCartridge`'s order. */
const PARTS = ['metadata', 'agreement', 'verbs', 'words', 'nouns', 'rules', 'features', 'lexicon', 'golden', 'tone', 'numerals'] as const satisfies ReadonlyArray<Exclude<keyof Cartridge, 'dir'>>;

/** A cartridge as read from its folder, with its phonology when it has a phonology.yaml. */
export interface LoadedCartridge {
  cartridge: Cartridge;
  phonology: Phonology | undefined;
}

/** Reads the cartridge and its phonology from YAML (no cache). */
export function readCartridgeFolder(dir: string): LoadedCartridge {
  const cartridge = loadCartridge(dir);
  const phonologyFile = path.join(dir, 'phonology.yaml');
  return { cartridge, phonology: existsSync(phonologyFile) ? loadPhonology(phonologyFile) : undefined };
}

/**
 * `readCartridgeFolder`, with the `folderDigest` of the content read: the folder's digest taken
 * before the read (`before`, when the caller has it) and after; undefined when they differ (the
 * folder was edited during the read, and which version each file was read in is unknown).
 */
export function readCartridgeFolderDigested(dir: string, before = folderDigest(dir)): LoadedCartridge & { digest: string | undefined } {
  const loaded = readCartridgeFolder(dir);
  return { ...loaded, digest: folderDigest(dir) === before ? before : undefined };
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** Whether the loader runs compiled (dist/) or from source (tsx): each keeps its own files. */
const flavour = path.extname(fileURLToPath(import.meta.url)).slice(1);

let loaderHash: string | undefined;

/**
 * A hash of the loader's code: this folder's modules and those of the folders whose schemas a
 * cartridge is validated with (noun grammar and phonology in ../morphology, numerals in ../numerals).
 */
function loaderFingerprint(): string {
  loaderHash ??= modulesDigest([here, path.join(here, '..', 'morphology'), path.join(here, '..', 'numerals')], `cartridge-cache ${FORMAT}\0`);
  return loaderHash;
}

/** The cache key of a cartridge folder: its files' names and bytes, and the loader's code. */
export function cartridgeKey(cartridgeDir: string): string {
  return seededKey(loaderFingerprint(), folderDigest(cartridgeDir));
}

export class CartridgeCache {
  constructor(readonly dir: string) {}

  /** The cartridge in `cartridgeDir` (named `iso`): from the file on disk when it is current, else read from YAML and written there. */
  load(iso: string, cartridgeDir: string): LoadedCartridge & { source: 'cache' | 'yaml'; digest: string | undefined } {
    const digest = folderDigest(cartridgeDir);
    const file = path.join(this.dir, `${iso}.${flavour}.${seededKey(loaderFingerprint(), digest)}.json`);
    const cached = this.#read(file, cartridgeDir);
    if (cached) return { ...cached, source: 'cache', digest };
    const loaded = readCartridgeFolderDigested(cartridgeDir, digest);
    // Edited while it was read: not kept under either version's key.
    if (loaded.digest !== undefined) this.#write(iso, file, loaded);
    return { ...loaded, source: 'yaml' };
  }

  #read(file: string, cartridgeDir: string): LoadedCartridge | undefined {
    let data: { format?: unknown; cartridge?: Record<string, unknown>; phonology?: Phonology };
    try {
      data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
    } catch {
      return undefined;
    }
    if (data.format !== FORMAT || typeof data.cartridge !== 'object' || data.cartridge === null) return undefined;
    const stored = data.cartridge;
    const cartridge = { dir: cartridgeDir } as Record<string, unknown>;
    for (const part of PARTS) cartridge[part] = stored[part];
    return { cartridge: cartridge as unknown as Cartridge, phonology: data.phonology };
  }

  #write(iso: string, file: string, loaded: LoadedCartridge): void {
    // The folder is where the cartridge is now, not part of its content.
    const { dir: _dir, ...cartridge } = loaded.cartridge;
    // Files of older versions of this cartridge or loader are dead weight; a folder that cannot be written costs the next run the YAML read.
    replaceCacheFile(file, JSON.stringify({ format: FORMAT, cartridge, phonology: loaded.phonology }), `${iso}.${flavour}.`);
  }
}
