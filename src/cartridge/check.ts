/**
 * `lugha cartridge check`: one cartridge folder validated file by file (the same zod schemas the
 * service loads it with), then its golden cases run through the engine in both directions by the
 * one golden runner. What an author adding or editing a language runs before anything else
 * (docs/adding-a-language.md). Nothing here names a language.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { folderDigest } from '../file-digest.js';
import type { FrameCache } from '../morphology/frame-cache.js';
import { loadPhonology } from '../morphology/phonology.js';
import { LanguageEngine } from '../morphology/service.js';
import { loadCartridge, type Cartridge } from './cartridge.js';
import { runGolden, tallyGolden, type GoldenOutcome, type GoldenTally } from './golden.js';

/** The files a cartridge folder may hold (docs/cartridges.md), and the text/ model folder. */
export const CARTRIDGE_FILES = [
  'cartridge.yaml',
  'phonology.yaml',
  'agreement.yaml',
  'verbs.yaml',
  'words.yaml',
  'nouns.yaml',
  'rules.yaml',
  'features.yaml',
  'lexicon.tsv',
  'golden.yaml',
  'tone.yaml',
  'numerals.yaml',
] as const;

export interface CartridgeCheck {
  iso: string;
  /** The cartridge files present, in the order of docs/cartridges.md. */
  files: string[];
  /** Validation errors, each naming its file (and field, or line and column); empty when every file is valid. */
  errors: string[];
  /** Golden outcomes (both directions), when the files are valid. */
  outcomes: GoldenOutcome[];
  generation: GoldenTally;
  analysis: GoldenTally;
  /** True when every file is valid and no golden case fails in either direction. */
  ok: boolean;
}

const EMPTY: GoldenTally = { total: 0, passing: 0, failing: 0, unanalysable: 0, open: 0 };

/**
 * Checks the cartridge in `dir`. With `frameCache`, the analyser's frames are read from the cache
 * when the files have not changed since they were built (and saved there otherwise).
 */
export function checkCartridge(dir: string, options: { frameCache?: FrameCache } = {}): CartridgeCheck {
  const iso = path.basename(dir);
  const files = existsSync(dir) ? CARTRIDGE_FILES.filter((f) => readdirSync(dir).includes(f)) : [];
  const errors: string[] = [];
  let cartridge: Cartridge | undefined;
  // With a frame cache, the folder's digest around the read keys the frames (src/morphology/frame-cache.ts).
  const before = options.frameCache && existsSync(dir) ? folderDigest(dir) : undefined;
  try {
    cartridge = loadCartridge(dir);
  } catch (error) {
    errors.push((error as Error).message);
  }
  if (files.includes('phonology.yaml')) {
    try {
      loadPhonology(path.join(dir, 'phonology.yaml'));
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  if (cartridge && cartridge.metadata.iso639_3 !== iso) errors.push(`${iso}/cartridge.yaml: metadata.iso639_3 is ${cartridge.metadata.iso639_3}, but the folder is ${iso}`);
  if (!cartridge || errors.length > 0) return { iso, files, errors, outcomes: [], generation: EMPTY, analysis: EMPTY, ok: false };
  const engine = new LanguageEngine(cartridge);
  // A cartridge edited while it was read has no key its frames could be kept under: they are built and not kept.
  const digest = before !== undefined && folderDigest(dir) === before ? before : undefined;
  if (cartridge.golden && options.frameCache && digest !== undefined && !options.frameCache.load(iso, digest, engine.analyzer)) {
    engine.analyzer.warm();
    options.frameCache.save(iso, digest, engine.analyzer);
  }
  const outcomes = runGolden(cartridge, engine);
  const generation = tallyGolden(outcomes, 'generation');
  const analysis = tallyGolden(outcomes, 'analysis');
  return { iso, files, errors, outcomes, generation, analysis, ok: generation.failing === 0 && analysis.failing === 0 };
}
