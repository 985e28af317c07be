/**
 * The composition root: chooses each backend once from the configuration and
 * wires the services that HTTP routes, MCP tools and the CLI share.
 */
import path from 'node:path';
import { KeyService } from './access/key-service.js';
import { AudioService } from './audio/audio-service.js';
import type { BlobStore } from './audio/blob-store.js';
import { ModelRegistry } from './hfst/models.js';
import { HfstService } from './hfst/service.js';
import { Meter } from './access/meter.js';
import { systemClock, type Clock } from './clock.js';
import { packageRoot, type Config } from './config.js';
import { buildCatalogue, type CatalogueEntry } from './coverage/catalogue.js';
import { CoverageService } from './coverage/coverage.js';
import { readMeasured } from './coverage/measured-accuracy.js';
import { LanguageCodes } from './language-codes.js';
import { CartridgeCache } from './cartridge/cache.js';
import { FrameCache } from './morphology/frame-cache.js';
import { MorphologyService } from './morphology/service.js';
import { openBackends } from './store/backends.js';
import { TextService, type TextAnalyzerFactory } from './text/service.js';
import { loadLearnedAnalyzer, loadLearnedAnalyzerInBackground } from './text/learned-analyzer.js';
import { textModelCacheDir } from './text/model-file.js';
import { ToneService } from './tone/service.js';
import { NumeralService } from './numerals/service.js';
import type { Store } from './store/store.js';

export interface Services {
  config: Config;
  clock: Clock;
  store: Store;
  /** Audio bytes, content-addressed; keys and paths never leave the service. */
  blobs: BlobStore;
  languageCodes: LanguageCodes;
  /**
   * Every installed language cartridge behind one API: conjugation, analysis, language facts.
   * Loaded on first use (building the HTTP app uses it), so key commands do not read the cartridges.
   */
  readonly morphology: MorphologyService;
  /** Tone-marked lexical data, tonal and minimal pairs, tone prediction; built on first use, its data read on the first call that needs it (`loadInBackground`). */
  readonly tone: ToneService;
  /** Numbers in words by each cartridge's numeral grammar; one per service set, so its spellers are reused. */
  readonly numerals: NumeralService;
  /** Coverage per capability of every cartridge, computed on first use (the product status API). */
  readonly coverage: CoverageService;
  keys: KeyService;
  /** The audio corpus as callers see it: coverage, listings, access to clips. */
  audio: AudioService;
  meter: Meter;
  /** HFST models of the models folder (scanned on first use): list, analyse, generate. */
  readonly hfst: HfstService;
  /** Running text: tokenise and analyse, with each language's learned analyser or the engine. */
  readonly text: TextService;
  /**
   * Every Narrow Bantu language Glottolog knows with the installed cartridges and their coverage
   * (GET /languages): built once, by the warm-up or on first use; nothing in it changes while the process runs.
   */
  catalogue(): CatalogueEntry[];
  /**
   * Readies every installed language's analyser (frames from the cache on disk, else built in
   * slices that yield, then cached) and text analyser, then the tone data, one step after another;
   * stops early when `stopped()`. Before each step it awaits `pause()` (by default one turn of the
   * event loop; `lugha mcp` waits there until no request is in flight). `onLanguage` gets each
   * language's working time, pauses left out.
   * While it runs, `analysisReadiness().warming` is true and `/readyz` answers 503.
   */
  warmAnalyzers(options?: {
    stopped?: () => boolean;
    pause?: () => Promise<void>;
    onLanguage?: (iso: string, source: string, ms: number) => void;
    /** More steps, run last the same way (a pause before each) before warming ends (`lugha serve`: its response serialisers). */
    steps?: () => Iterable<() => void>;
  }): Promise<void>;
  /** Whether analyses may still wait on a build: `warming` while warmAnalyzers runs, and how many languages are ready. */
  analysisReadiness(): { warming: boolean; ready: number; total: number };
  /** Closes every backend; safe to call twice. */
  close(): Promise<void>;
}

/** Opens the backends named by `config` and builds the services over them. */
export async function openServices(config: Config, options: { clock?: Clock } = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const languageCodes = openLanguageCodes();
  let morphology: MorphologyService | undefined;
  let tone: ToneService | undefined;
  const toneOptions = () => ({ morphology: services.morphology, codes: languageCodes, referenceDir: path.join(packageRoot, 'reference', 'tone') });
  let numerals: NumeralService | undefined;
  let coverage: CoverageService | undefined;
  let text: TextService | undefined;
  let hfst: { registry: ModelRegistry; service: HfstService } | undefined;
  // SQLite + filesystem by default; PostgreSQL, Redis and S3 when configured (src/store/backends.ts).
  const backends = await openBackends(config);
  const store = backends.store;
  let closed = false;
  let warming = false;
  let foundational: string[] | undefined;
  let catalogue: CatalogueEntry[] | undefined;
  const blobs = backends.blobs;
  const services: Services = {
    config,
    clock,
    store,
    blobs,
    languageCodes,
    get morphology() {
      morphology ??= openMorphology(config, languageCodes);
      return morphology;
    },
    get tone() {
      tone ??= new ToneService(toneOptions());
      return tone;
    },
    get numerals() {
      numerals ??= openNumerals(services.morphology);
      return numerals;
    },
    get coverage() {
      coverage ??= new CoverageService({
        morphology: () => services.morphology,
        codes: languageCodes,
        measured: () => readMeasured(path.join(packageRoot, 'reference', 'measured-accuracy.json')),
      });
      return coverage;
    },
    audio: new AudioService({
      store,
      blobs,
      languageCodes,
      foundational: () =>
        (foundational ??= services.morphology
          .languages()
          .filter((l) => l.foundational)
          .map((l) => l.iso)),
      languageName: (iso) => services.morphology.languages().find((l) => l.iso === iso)?.name ?? languageCodes.languoid(iso)?.name,
      audioBase: config.audioBase,
      sampleCap: config.sampleCap,
    }),
    keys: new KeyService({ store, clock, languageCodes, ...(backends.keyChanges ? { changes: backends.keyChanges } : {}) }),
    meter: new Meter({ counter: store.quota, clock }),
    get hfst() {
      hfst ??= openHfst(config, languageCodes);
      return hfst.service;
    },
    get text() {
      text ??= new TextService({ morphology: () => services.morphology, factories: textAnalyzerFactories });
      return text;
    },
    catalogue() {
      catalogue ??= buildCatalogue(languageCodes, services.morphology.languages(), services.coverage.all());
      return catalogue;
    },
    async warmAnalyzers(options = {}) {
      // Each step below is one language's cartridge and frames (the frames read in slices that
      // yield), one text analyser, or the tone data of one language; `pause` runs before each.
      const pause = options.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
      warming = true;
      try {
        for (const iso of services.morphology.installed()) {
          await pause();
          if (options.stopped?.()) return;
          let started = performance.now();
          const source = await services.morphology.prepareInBackground(iso);
          let ms = performance.now() - started;
          await pause();
          if (options.stopped?.()) return;
          // The language's text analyser too (a learnt model is read from disk), so the first
          // analyze-text does not wait on it.
          started = performance.now();
          await services.text.load(iso);
          ms += performance.now() - started;
          // Its golden tests, which the language listings report (run once per process): here a
          // language at a time, not all at once on the first listing.
          await pause();
          if (options.stopped?.()) return;
          started = performance.now();
          const engine = services.morphology.engine(iso);
          if (engine.ok) engine.value.golden();
          ms += performance.now() - started;
          // Its coverage (the first /languages computed every language's at once) and, for a language
          // the engine reads text for, its context.yaml (read on its first analyze-text before).
          for (const step of [() => services.coverage.prepare(iso), () => services.text.prepareContext(iso)]) {
            await pause();
            if (options.stopped?.()) return;
            started = performance.now();
            step();
            ms += performance.now() - started;
          }
          options.onLanguage?.(iso, source, Math.round(ms));
        }
        // Minimal pairs are computed per language on first use: compute them now, a language at a time, in slices.
        await pause();
        if (options.stopped?.()) return;
        // The tone data read in slices (a request that needs it meanwhile awaits the same read).
        await services.tone.loadInBackground();
        for (const { language } of services.tone.languages()) {
          await pause();
          if (options.stopped?.()) return;
          await services.tone.prepareMinimalPairsInBackground(language);
        }
        // The language catalogue, from the summaries and coverage computed above (not on the first /languages).
        await pause();
        if (options.stopped?.()) return;
        services.catalogue();
        for (const step of options.steps?.() ?? []) {
          await pause();
          if (options.stopped?.()) return;
          step();
        }
      } finally {
        warming = false;
      }
    },
    analysisReadiness() {
      return { warming, ...(morphology ? morphology.readiness() : { ready: 0, total: 0 }) };
    },
    async close() {
      if (closed) return;
      closed = true;
      hfst?.registry.close();
      await backends.close();
    },
  };
  return services;
}

/**
 * Learned text analysers, tried in order for each language before the cartridge engine (see
 * src/text/service.ts): each returns an analyser for a cartridge folder, or null when it has none.
 */
export const textAnalyzerFactories: TextAnalyzerFactory[] = [
  Object.assign((cartridge: { dir: string }) => loadLearnedAnalyzer(cartridge.dir, textModelCacheDir), {
    inBackground: (cartridge: { dir: string }) => loadLearnedAnalyzerInBackground(cartridge.dir, undefined, textModelCacheDir),
  }),
];

/** The language codes Lugha recognises, from the reference tables. */
export function openLanguageCodes(): LanguageCodes {
  return LanguageCodes.fromReference(path.join(packageRoot, 'reference'));
}

/** Where analysis frames are kept between runs (built by `npm run build:frames`, or by the first run that needs them). */
export const frameCacheDir = path.join(packageRoot, 'dist', 'frames');

/** Where parsed and validated cartridges are kept between runs (src/cartridge/cache.ts; built by `npm run build:frames`, or by the first run that reads each). */
export const cartridgeCacheDir = path.join(packageRoot, 'dist', 'cartridges');

/**
 * Every cartridge under `config.languagesDir` behind the morphology service; usable
 * without a store (the language commands). A cartridge is read on the first use of its language,
 * from the cache of parsed cartridges (`cartridgeCacheDir`) when it is current, else from its YAML
 * and saved there. Analysis frames come from the cache on disk (`frameCacheDir`), else are built
 * on first use and saved there; `warm()` readies them now.
 * `only` installs just those cartridge folders (a command about one language).
 */
export function openMorphology(
  config: Pick<Config, 'languagesDir'>,
  languageCodes = openLanguageCodes(),
  options: { only?: readonly string[]; frameCache?: string | false; cartridgeCache?: string | false } = {},
): MorphologyService {
  const cacheDir = options.frameCache ?? frameCacheDir;
  const cartridgeDir = options.cartridgeCache ?? cartridgeCacheDir;
  return MorphologyService.load(config.languagesDir, languageCodes, {
    ...(cacheDir ? { frameCache: new FrameCache(cacheDir) } : {}),
    ...(cartridgeDir ? { cartridgeCache: new CartridgeCache(cartridgeDir) } : {}),
    ...(options.only ? { only: options.only } : {}),
  });
}

/** The numeral service over `morphology` (the service set's, or a command's): the one place it is built. */
export function openNumerals(morphology: MorphologyService): NumeralService {
  return new NumeralService(morphology);
}

/** The models folder behind the HFST service; language codes in manifests are normalised like everywhere else. */
export function openHfst(config: Pick<Config, 'modelsDir'>, languageCodes = openLanguageCodes()): { registry: ModelRegistry; service: HfstService } {
  const registry = ModelRegistry.scan([config.modelsDir]);
  return { registry, service: new HfstService(registry, { normaliseLanguage: (code) => languageCodes.normalise(code) }) };
}
