/**
 * Coverage of every installed cartridge: each capability evaluator run over each
 * cartridge, with its measured accuracy. Computed once per process on first use
 * (or in the background after start), then served from memory.
 */
import { readdirSync } from 'node:fs';
import type { LanguageCodes } from '../language-codes.js';
import type { LanguageSummary, MorphologyService } from '../morphology/service.js';
import { COVERAGE_LEVELS, capabilityEvaluators, scoreGolden, type CapabilityEvaluator, type CapabilityStatus, type CoverageLevel } from './capabilities.js';
import { measuredFor, type MeasuredFile, type MeasuredLanguage } from './measured-accuracy.js';
import { runToneGolden, scoreToneGolden } from '../tone/golden.js';

/** One cartridge with its coverage per capability. */
export interface CartridgeCoverage extends Pick<LanguageSummary, 'iso' | 'iso639_1' | 'name' | 'endonym' | 'glottocode' | 'guthrie' | 'foundational'> {
  /** The strongest level any capability beyond metadata reaches: a summary for listings. */
  level: CoverageLevel;
  capabilities: Record<string, CapabilityStatus>;
  golden_tests: { total: number; passing: number };
  measured_accuracy: MeasuredLanguage | null;
  /** Files the cartridge holds (yaml/tsv), so a buyer sees what the coverage is computed from. */
  files: string[];
  sources: Array<{ id: string; citation: string }>;
}

export interface CoverageOptions {
  morphology: () => MorphologyService;
  codes: LanguageCodes;
  measured: () => MeasuredFile | undefined;
  evaluators?: CapabilityEvaluator[];
}

/** Computes and caches coverage for every installed cartridge. */
export class CoverageService {
  #cache?: CartridgeCoverage[];
  /** Each language's coverage once computed (`prepare`, or `all`). */
  readonly #byIso = new Map<string, CartridgeCoverage>();
  #measured?: { file: MeasuredFile | undefined };
  readonly evaluators: CapabilityEvaluator[];

  constructor(private readonly options: CoverageOptions) {
    this.evaluators = options.evaluators ?? capabilityEvaluators;
  }

  /** Every cartridge, sorted by code. */
  all(): CartridgeCoverage[] {
    this.#cache ??= this.#compute();
    return this.#cache;
  }

  /** One cartridge by any accepted code (ISO 639-1, 639-3, alias), or undefined. */
  find(code: string): CartridgeCoverage | undefined {
    const lower = code.trim().toLowerCase();
    const iso = this.options.codes.normalise(lower) ?? lower;
    return this.all().find((c) => c.iso === iso);
  }

  /**
   * Computes one installed language's coverage now (a warm-up step: one language's golden and tone
   * tests), so that `all` later only gathers; nothing for a code that is not installed.
   */
  prepare(iso: string): void {
    if (this.#cache) return;
    const found = this.options.morphology().engine(iso);
    if (found.ok) this.#entry(found.value.summary());
  }

  /** Computes now, off the request path; call after the server starts listening. */
  warmInBackground(): void {
    setImmediate(() => {
      try {
        this.all();
      } catch {
        // computed again (and the error surfaces) on the first request
      }
    });
  }

  #compute(): CartridgeCoverage[] {
    return this.options
      .morphology()
      .languages()
      .map((summary) => this.#entry(summary));
  }

  #entry(summary: LanguageSummary): CartridgeCoverage {
    const known = this.#byIso.get(summary.iso);
    if (known) return known;
    const morphology = this.options.morphology();
    this.#measured ??= { file: this.options.measured() };
    const measured = this.#measured.file;
    const found = morphology.engine(summary.iso);
    if (!found.ok) throw new Error(`cartridge ${summary.iso} vanished: ${found.message}`);
    const engine = found.value;
    const input = {
      engine,
      languoid: this.options.codes.languoid(summary.iso),
      measured: measuredFor(measured, summary.iso, engine.cartridge.dir),
      golden: scoreGolden(engine),
      ...(engine.cartridge.tone ? { tone: scoreToneGolden(runToneGolden(morphology, summary.iso)) } : {}),
    };
    const capabilities = Object.fromEntries(this.evaluators.map((e) => [e.id, e.evaluate(input)]));
    const beyondMetadata = this.evaluators.filter((e) => e.family !== 'metadata').map((e) => capabilities[e.id]!.level);
    const level = beyondMetadata.reduce<CoverageLevel>((best, l) => (COVERAGE_LEVELS.indexOf(l) > COVERAGE_LEVELS.indexOf(best) ? l : best), 'declared');
    const entry: CartridgeCoverage = {
      iso: summary.iso,
      iso639_1: summary.iso639_1,
      name: summary.name,
      endonym: summary.endonym,
      glottocode: summary.glottocode,
      guthrie: summary.guthrie,
      foundational: summary.foundational,
      level,
      capabilities,
      golden_tests: summary.golden_tests,
      measured_accuracy: input.measured ?? null,
      files: cartridgeFiles(engine.cartridge.dir),
      sources: summary.sources,
    };
    this.#byIso.set(summary.iso, entry);
    return entry;
  }
}

function cartridgeFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /\.(ya?ml|tsv)$/.test(n))
    .sort();
}
