/**
 * The morphology service: every installed cartridge behind one API that HTTP
 * routes, MCP tools and the CLI share. Conjugation, analysis, paradigms and
 * language facts, with errors as values naming the parameter to fix.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { LanguageCodes } from '../language-codes.js';
import type { analysisSchema, conjugationInput, conjugationResultSchema, languageSummarySchema, slotView, wordView as wordViewSchema } from '../morphology-api.js';
import { fail, ok, problem, type Result } from '../result.js';
import { Analyzer } from './analyzer.js';
import type { FrameCache } from './frame-cache.js';
import type { AgreementRow, Cartridge } from '../cartridge/cartridge.js';
import { readCartridgeFolder, readCartridgeFolderDigested, type CartridgeCache } from '../cartridge/cache.js';
import { runGolden, tallyGolden } from '../cartridge/golden.js';
import { isStative } from './english-verbs.js';
import { derivationSense, derivedVerb, englishGloss, glossTenses, isHuman, isPerfective, personalSense, resultState, type GlossObject, type GlossPerson, type GlossTense } from './english-gloss.js';
import { GenerationError, Generator, infinitivePrefixes, infinitiveStems, RESULT_STATE_FLAG, type Cell, type Generated, type GeneratedWord } from './generator.js';
import { loadPhonology, type Phonology } from './phonology.js';
import { syllableInventory, syllabify, type SyllableInventory } from './syllables.js';
import { cellFromFeatures } from './unimorph.js';
import { tonalAnalysis } from '../tone/analysis.js';
import { ToneEngine } from '../tone/engine.js';
import { runSteps, runStepsInSlices, type Steps } from '../steps.js';
import { writtenSpelling } from './lexicon-readings.js';

/**
 * One conjugation: the language and the parameters of GET /conjugate, as parsed by their schema
 * (src/morphology-api.ts); everything but the language and the root may be left out.
 */
type ParsedConjugation = z.output<typeof conjugationInput>;
export type ConjugateInput = Pick<ParsedConjugation, 'language' | 'root'> & Partial<Omit<ParsedConjugation, 'language' | 'root'>>;

/** The service's results are the types of the API schemas (src/morphology-api.ts), which validate and document them. */
export type SlotView = z.infer<typeof slotView>;
export type WordView = z.infer<typeof wordViewSchema>;
export type ConjugationResult = z.infer<typeof conjugationResultSchema>;
export type AnalysisView = z.infer<typeof analysisSchema>;
export type LanguageSummary = z.infer<typeof languageSummarySchema>;

export type { TonalAnalysis } from '../tone/analysis.js';

/** Subject spellings accepted at the edge besides the agreement ids. */
const SUBJECT_ALIASES: Record<string, string> = { '3sg': 'c1', '3pl': 'c2' };

/** One language's engine. */
export class LanguageEngine {
  readonly generator: Generator;
  readonly analyzer: Analyzer;
  readonly phonology?: Phonology;
  /** The tone engine, when the cartridge has tone data. */
  readonly tone?: ToneEngine;
  /**
   * The `folderDigest` of the cartridge folder as it was read (src/cartridge/cache.ts): the key of
   * the analysis frames built from it (src/morphology/frame-cache.ts). Undefined when it is not
   * known (a cartridge given already read, or one edited while it was read): its frames are then
   * built and never read from or written to the cache.
   */
  readonly digest?: string;
  #golden?: { total: number; passing: number };
  #syllables?: SyllableInventory;

  /** `preloaded.phonology`: the cartridge's phonology already read (src/cartridge/cache.ts); else its phonology.yaml is read here. */
  constructor(
    readonly cartridge: Cartridge,
    preloaded?: { phonology: Phonology | undefined; digest?: string | undefined },
  ) {
    if (preloaded?.digest !== undefined) this.digest = preloaded.digest;
    this.generator = new Generator(cartridge);
    this.analyzer = new Analyzer(this.generator);
    const phonologyFile = path.join(cartridge.dir, 'phonology.yaml');
    if (preloaded) {
      if (preloaded.phonology) this.phonology = preloaded.phonology;
    } else if (existsSync(phonologyFile)) this.phonology = loadPhonology(phonologyFile);
    if (cartridge.tone) this.tone = new ToneEngine(cartridge.tone, this.phonology);
  }

  get iso(): string {
    return this.cartridge.metadata.iso639_3;
  }

  /**
   * The syllable inventory of the phonology, computed once (about 3 ms of CPU a language, on every
   * GET /syllables before): the cartridge does not change while the process runs. Callers read it only.
   */
  syllableInventory(): SyllableInventory | undefined {
    if (!this.phonology) return undefined;
    this.#syllables ??= syllableInventory(this.phonology);
    return this.#syllables;
  }

  /**
   * A generated form as the standard orthography writes it: without the optional marks when the
   * cartridge says the spelling leaves them out (metadata.orthography.written: false), else unchanged.
   */
  written(text: string): string {
    this.#written ??= writtenSpelling(this.generator);
    return this.#written(text);
  }

  #written?: (text: string) => string;

  /** The English gloss of `lemma` in `cell` whose generated form is `surface` (GET /conjugate's `english`). */
  english(lemma: string, cell: Cell, surface: string): string {
    // The first sense of a gloss ('go, walk' -> 'go') makes the English sentence (a passive may take a later one:
    // derivationSense), unless the tense names the verb's sense in it (verbs.yaml `senses`).
    const lexeme = this.generator.lexeme(lemma, cell.word_class);
    const own = cell.tense ? this.generator.tense(cell.tense)?.senses?.[lexeme.lemma] : undefined;
    return gloss(this, lemma, own ? [own] : senses(this.generator.formGloss(lemma, cell.word_class, surface) ?? lexeme.gloss, lemma), own !== undefined || lexeme.gloss !== null, cell);
  }

  /** Golden tests of the cartridge (generation, src/cartridge/golden.ts), run once. */
  golden(): { total: number; passing: number } {
    if (this.#golden) return this.#golden;
    const { total, passing } = tallyGolden(runGolden(this.cartridge, this, ['generation']), 'generation');
    this.#golden = { total, passing };
    return this.#golden;
  }

  summary(): LanguageSummary {
    const m = this.cartridge.metadata;
    const capabilities: string[] = [];
    if (this.cartridge.verbs) capabilities.push('conjugation', 'analysis', 'paradigms');
    if (this.cartridge.words?.classes.length) capabilities.push('agreement');
    if (this.phonology) capabilities.push('syllables');
    if (this.tone) capabilities.push('tones');
    return {
      iso: m.iso639_3,
      iso639_1: m.iso639_1 ?? null,
      name: m.name,
      endonym: m.endonym ?? null,
      glottocode: m.glottocode ?? null,
      guthrie: m.guthrie ?? null,
      foundational: m.foundational,
      capabilities,
      tenses: (this.cartridge.verbs?.tenses ?? []).map((t) => ({ id: t.id, label: t.label, mood: t.mood, negative: !t.negative.absent && !t.negative.not_modelled })),
      subjects: this.generator.agreementIds,
      extensions: (this.cartridge.verbs?.extensions ?? []).map((e) => e.id),
      word_classes: [...(this.cartridge.verbs ? ['verb'] : []), ...(this.cartridge.words?.classes.map((c) => c.id) ?? [])],
      lexicon_size: this.cartridge.lexicon.length,
      golden_tests: this.golden(),
      sources: m.sources.map((s) => ({ id: s.id, citation: s.citation })),
    };
  }
}

export class MorphologyService {
  /**
   * Every installed language by ISO 639-3 code: its engine once loaded, else the cartridge folder
   * it is loaded from on first use (reading and validating a cartridge costs tens of milliseconds;
   * a request about one language need not pay for forty-five).
   */
  readonly #engines = new Map<string, LanguageEngine | string>();

  readonly #frameCache?: FrameCache;

  readonly #cartridgeCache?: CartridgeCache;

  /**
   * `cartridges` are installed loaded; `folders` (cartridge folders named by their ISO code) are
   * installed and loaded on first use, through `cartridgeCache` when given.
   */
  constructor(
    cartridges: Cartridge[],
    private readonly codes: LanguageCodes,
    options: { frameCache?: FrameCache; cartridgeCache?: CartridgeCache; folders?: readonly string[] } = {},
  ) {
    for (const c of cartridges) this.#engines.set(c.metadata.iso639_3, new LanguageEngine(c));
    for (const folder of options.folders ?? []) this.#engines.set(path.basename(folder), folder);
    if (options.frameCache) this.#frameCache = options.frameCache;
    if (options.cartridgeCache) this.#cartridgeCache = options.cartridgeCache;
  }

  /**
   * Installs every cartridge folder under `dir` (folders without cartridge.yaml are skipped), or only
   * the folders named in `only`. A cartridge is read and validated on the first use of its language
   * (a malformed one throws then, naming the file and field); `languages()` reads them all.
   * With `frameCache`, analysis frames are read from and written to that cache on disk; with
   * `cartridgeCache`, parsed and validated cartridges are.
   */
  static load(dir: string, codes: LanguageCodes, options: { frameCache?: FrameCache; cartridgeCache?: CartridgeCache; only?: readonly string[] } = {}): MorphologyService {
    const folders = existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory() && (!options.only || options.only.includes(e.name)) && existsSync(path.join(dir, e.name, 'cartridge.yaml')))
          .map((e) => path.join(dir, e.name))
      : [];
    return new MorphologyService([], codes, {
      folders,
      ...(options.frameCache ? { frameCache: options.frameCache } : {}),
      ...(options.cartridgeCache ? { cartridgeCache: options.cartridgeCache } : {}),
    });
  }

  /** The ISO 639-3 codes of the installed languages, sorted, without reading any cartridge. */
  installed(): string[] {
    return [...this.#engines.keys()].sort();
  }

  /** Whether the language's cartridge has been read (its engine exists). */
  loaded(iso: string): boolean {
    return this.#engines.get(iso) instanceof LanguageEngine;
  }

  /** The engine of an installed language, reading its cartridge on first use. */
  #engine(iso: string): LanguageEngine | undefined {
    const entry = this.#engines.get(iso);
    if (entry === undefined || entry instanceof LanguageEngine) return entry;
    // With a frame cache the folder's digest is taken around the read: the frames' key must describe the content they are built from.
    const { cartridge, phonology, digest } = this.#cartridgeCache ? this.#cartridgeCache.load(iso, entry) : this.#frameCache ? readCartridgeFolderDigested(entry) : { ...readCartridgeFolder(entry), digest: undefined };
    if (cartridge.metadata.iso639_3 !== iso) {
      throw new Error(`${iso}/cartridge.yaml: metadata.iso639_3 is "${cartridge.metadata.iso639_3}", but the folder is "${iso}"`);
    }
    const engine = new LanguageEngine(cartridge, { phonology, digest });
    this.#engines.set(iso, engine);
    return engine;
  }

  /** Every installed language's engine (reads the cartridges not read yet). */
  #all(): LanguageEngine[] {
    return [...this.#engines.keys()].map((iso) => this.#engine(iso)!);
  }

  /** Builds analysis frames now (call in the background after start). */
  warm(): void {
    for (const engine of this.#all()) this.#prepare(engine);
  }

  /** How many installed languages have their analysis frames ready (an analysis in them will not wait on a build). */
  readiness(): { ready: number; total: number } {
    const engines = [...this.#engines.values()];
    return { ready: engines.filter((e) => e instanceof LanguageEngine && e.analyzer.ready).length, total: engines.length };
  }

  /**
   * Makes one language's analyser ready without blocking the event loop for long: frames from
   * the cache on disk when it has them (one read and parse), else built in slices that yield,
   * then written to the cache. Returns where the frames came from.
   */
  async prepareInBackground(iso: string): Promise<'ready' | 'cache' | 'built'> {
    const engine = this.#engine(iso);
    if (!engine || engine.analyzer.ready) return 'ready';
    // Callers arriving while a language is being prepared wait for that one preparation.
    let preparing = this.#preparing.get(iso);
    if (!preparing) {
      const { digest } = engine;
      const cache = digest === undefined ? undefined : this.#frameCache;
      preparing = (async () => {
        let source: 'cache' | 'built' = 'cache';
        if (!cache || !(await cache.loadInBackground(engine.iso, digest!, engine.analyzer))) {
          await engine.analyzer.warmInBackground();
          if (cache) await cache.saveInBackground(engine.iso, digest!, engine.analyzer);
          source = 'built';
        }
        // The lexicon's indexes too, in slices: not on the language's first analysis.
        await engine.analyzer.prepareLexiconInBackground();
        return source;
      })().finally(() => this.#preparing.delete(iso));
      this.#preparing.set(iso, preparing);
    }
    return preparing;
  }

  readonly #preparing = new Map<string, Promise<'cache' | 'built'>>();

  /** The analyser's frames: from the cache on disk, else built now (and saved). */
  #prepare(engine: LanguageEngine): void {
    if (engine.analyzer.ready) return;
    const cache = engine.digest === undefined ? undefined : this.#frameCache;
    if (cache?.load(engine.iso, engine.digest!, engine.analyzer)) return;
    engine.analyzer.warm();
    cache?.save(engine.iso, engine.digest!, engine.analyzer);
  }

  /** Every installed language's summary, sorted by code (reads the cartridges not read yet). */
  languages(): LanguageSummary[] {
    return this.#all()
      .map((e) => e.summary())
      .sort((a, b) => a.iso.localeCompare(b.iso));
  }

  /** The engine for a language code (ISO 639-3, 639-1 or a macrolanguage code). */
  engine(code: string): Result<LanguageEngine, 'language_not_found' | 'invalid_parameter'> {
    const iso = this.codes.normalise(code) ?? (this.#engines.has(code.toLowerCase()) ? code.toLowerCase() : undefined);
    const engine = iso ? this.#engine(iso) : undefined;
    if (engine) return ok(engine);
    const installed = [...this.#engines.keys()].join(', ');
    if (!/^[a-z]{2,3}$/i.test(code.trim())) return fail('invalid_parameter', `"${code}" is not a language code; installed: ${installed}`);
    return fail('language_not_found', `no cartridge for "${code}"; installed: ${installed}`);
  }

  conjugate(input: ConjugateInput): Result<ConjugationResult> {
    const resolved = this.#resolve(input);
    if (!resolved.ok) return resolved;
    const { engine, lemma, cell } = resolved.value;
    let generated: Generated;
    try {
      generated = engine.generator.generate(lemma, cell);
    } catch (error) {
      return this.#generationProblem(engine, error);
    }
    return ok(this.#view(engine, lemma, cell, generated, input.include_tones === true));
  }

  /** Every analysis of `form`, in one language or in every installed one. */
  analyze(form: string, language?: string): Result<AnalysisView[]> {
    const engines = this.#analysisEngines(form, language);
    if (!engines.ok) return engines;
    for (const engine of engines.value) this.#prepare(engine);
    return runSteps(this.#analysisSteps(form.trim(), engines.value));
  }

  /**
   * `analyze` for a request path: the analysers made ready in the background (prepareInBackground),
   * then the analysis in slices of about `sliceMs` with a turn of the event loop between them (a
   * step is one frame's proposals, or one analysis's view). The same result as `analyze`; a long
   * or pathological word, or a form analysed in every installed language, does not hold the loop.
   */
  async analyzeInSlices(form: string, language?: string, sliceMs = 10): Promise<Result<AnalysisView[]>> {
    const engines = this.#analysisEngines(form, language);
    if (!engines.ok) return engines;
    for (const engine of engines.value) await this.prepareInBackground(engine.iso);
    return runStepsInSlices(this.#analysisSteps(form.trim(), engines.value), sliceMs);
  }

  /** The engines an analysis of `form` runs in, or the problem with the form or language. */
  #analysisEngines(form: string, language: string | undefined): Result<LanguageEngine[]> {
    const text = form.trim();
    if (!text) return problem('invalid_parameter', 'form', 'give a word to analyse');
    if (text.length > 100) return problem('invalid_parameter', 'form', 'a form is at most 100 characters');
    if (!language) return ok(this.#all());
    const found = this.engine(language);
    if (!found.ok) return problem(found.code, 'language', found.message, [...this.#engines.keys()]);
    return ok([found.value]);
  }

  *#analysisSteps(text: string, engines: LanguageEngine[]): Steps<Result<AnalysisView[]>> {
    const results: AnalysisView[] = [];
    for (const engine of engines) {
      this.#prepare(engine);
      for (const a of yield* engine.analyzer.analysisSteps(text)) {
        yield;
        const view = this.#view(engine, a.lemma, a.cell, a.generated);
        results.push({
          language: engine.iso,
          lemma: a.lemma,
          root: a.root,
          in_lexicon: a.in_lexicon,
          gloss: a.gloss,
          english: a.gloss ? view.english : null,
          features: view.features,
          words: view.words,
          score: a.score,
        });
      }
    }
    return ok(results.sort((a, b) => b.score - a.score));
  }

  /** Syllables of a word and the language's syllable inventory. */
  syllables(language: string): Result<ReturnType<typeof syllableInventory> & { language: string }> {
    const found = this.engine(language);
    if (!found.ok) return problem(found.code, 'lang', found.message, [...this.#engines.keys()]);
    if (!found.value.phonology) return problem('language_not_found', 'lang', `no phonology for ${found.value.cartridge.metadata.name} yet`);
    return ok({ language: found.value.iso, ...found.value.syllableInventory()! });
  }

  syllabify(language: string, word: string): Result<string[]> {
    const found = this.engine(language);
    if (!found.ok) return problem(found.code, 'language', found.message, [...this.#engines.keys()]);
    if (!found.value.phonology) return problem('language_not_found', 'language', `no phonology for ${found.value.cartridge.metadata.name} yet`);
    return ok(syllabify(word, found.value.phonology));
  }

  #resolve(input: ConjugateInput): Result<{ engine: LanguageEngine; lemma: string; cell: Cell }> {
    const found = this.engine(input.language);
    if (!found.ok) return problem(found.code, 'language', found.message, [...this.#engines.keys()]);
    const engine = found.value;
    const verbs = engine.cartridge.verbs;
    if (!verbs) return problem('invalid_parameter', 'language', `${engine.cartridge.metadata.name} has no verb grammar yet`);
    const lemma = this.#lemma(engine, input.root);
    if (!lemma.ok) return lemma;
    if (input.features) {
      const mapping = engine.cartridge.features;
      const cell = mapping ? cellFromFeatures(input.features, mapping) : undefined;
      if (!cell || cell.word_class !== 'verb') return problem('invalid_parameter', 'features', `"${input.features}" does not name a verb form of ${engine.cartridge.metadata.name}`);
      return ok({ engine, lemma: lemma.value, cell });
    }
    const tenseIds = engine.generator.tenseIds;
    let tense = input.tense ?? (input.mood ? verbs.tenses.find((t) => t.id === input.mood || t.mood === input.mood)?.id : undefined) ?? tenseIds[0]!;
    const tenseSpec = engine.generator.tense(tense);
    if (!tenseSpec) return problem('invalid_parameter', 'tense', `unknown tense "${tense}"`, tenseIds);
    if (input.mood && tenseSpec.mood !== input.mood && tenseSpec.id !== input.mood) {
      const moods = [...new Set(verbs.tenses.map((t) => t.mood))];
      return problem('invalid_parameter', 'mood', `the ${tense} is ${tenseSpec.mood}, not ${input.mood}`, moods);
    }
    tense = tenseSpec.id;
    const subjects = engine.generator.agreementIds;
    const subject = input.subject === undefined ? undefined : (SUBJECT_ALIASES[input.subject.toLowerCase()] ?? input.subject.toLowerCase());
    if (subject !== undefined && !subjects.includes(subject)) {
      return problem('invalid_parameter', 'subject', `unknown subject "${input.subject}"`, ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl', ...subjects.filter((s) => s.startsWith('c'))]);
    }
    const object = input.object === undefined ? undefined : input.object.toLowerCase() === 'refl' ? 'refl' : (SUBJECT_ALIASES[input.object.toLowerCase()] ?? input.object.toLowerCase());
    if (object !== undefined && object !== 'refl' && !subjects.includes(object)) {
      return problem('invalid_parameter', 'object', `unknown object "${input.object}"`, ['refl', ...subjects]);
    }
    const head = input.head === undefined ? undefined : input.head.toLowerCase();
    if (head !== undefined && !subjects.includes(head))
      return problem(
        'invalid_parameter',
        'head',
        `unknown head "${input.head}"`,
        subjects.filter((s) => s.startsWith('c')),
      );
    if (input.variant && !tenseSpec.variants[input.variant]) {
      return problem('invalid_parameter', 'variant', `the ${tense} has no variant "${input.variant}"`, Object.keys(tenseSpec.variants));
    }
    for (const ext of input.extensions ?? []) {
      if (!verbs.extensions.some((e) => e.id === ext))
        return problem(
          'invalid_parameter',
          'extensions',
          `unknown extension "${ext}"`,
          verbs.extensions.map((e) => e.id),
        );
    }
    const polarity = input.polarity ?? 'positive';
    const formation = { ...tenseSpec[polarity], ...(input.variant ? tenseSpec.variants[input.variant]?.[polarity] : {}) };
    if (formation.absent) return problem('invalid_parameter', 'polarity', `the ${tense} has no ${polarity} form`, ['positive']);
    if (formation.not_modelled) return problem('invalid_parameter', 'polarity', `the ${polarity} ${tense} is not modelled in this cartridge yet`, ['positive']);
    const needsSubject = !formation.no_subject || formation.plural_suffix !== undefined || formation.plural_prefix !== undefined || formation.fv_plural !== undefined;
    const chosen = subject ?? (needsSubject ? (formation.no_subject ? '2sg' : undefined) : undefined);
    // A form without a subject concord that still marks the plural (the imperative) addresses the 2nd person.
    const addressees = subjects.filter((id) => engine.generator.row(id)?.person === 2);
    // An imperative without a subject concord speaks to the addressee even where it marks no plural (se rate 'do not
    // love!'): another person's subject is refused, not glossed 'let her/him not love'.
    if (formation.no_subject && (needsSubject || tenseSpec.mood === 'imperative') && chosen && !addressees.includes(chosen)) {
      return problem('invalid_parameter', 'subject', `the ${tense} addresses the second person`, addressees);
    }
    if (needsSubject && !chosen) return problem('invalid_parameter', 'subject', `the ${tense} needs a subject`, ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl', ...subjects.filter((s) => s.startsWith('c'))]);
    // An object marker needs a verb that still takes an object: not a passive, stative or reciprocal of a
    // verb with one object (kinamsomwa), nor a verb the lexicon flags `no_object` ('go'), unless an applicative
    // or causative adds one; a verb flagged `two_objects` keeps one after its passive. A lemma outside the
    // lexicon is taken to have one.
    if (object !== undefined) {
      const derivation = engine.generator.derivation(lemma.value, input.extensions ?? []);
      const lexeme = engine.generator.lexeme(lemma.value, 'verb');
      const known = derivation.gloss ?? lexeme.gloss;
      if (engine.generator.objectPlaces(lemma.value, input.extensions ?? []) < 1) {
        const adding = verbs.extensions.filter((e) => (e.meaning ?? e.id) === 'applicative' || (e.meaning ?? e.id) === 'causative').map((e) => e.id);
        const what = derivation.meanings.length > 0 ? `the ${[...(input.extensions ?? [])].join(' + ')} of "${lemma.value}"` : `"${lemma.value}" ('${known}')`;
        return problem('invalid_parameter', 'object', `${what} takes no object marker: send no object, or add an extension that adds one`, adding);
      }
    }
    // A first or second person acting on itself is the reflexive (ndadzigulitsa), not the object concord of the
    // subject's own person ('I sold me').
    if (object !== undefined && object === chosen && (engine.generator.row(object)?.person ?? 3) !== 3) {
      return problem('invalid_parameter', 'object', `the object ${object} is the subject itself: use the reflexive object "refl"`, ['refl', ...subjects.filter((s) => s !== object)]);
    }
    const cell: Cell = {
      word_class: 'verb',
      tense,
      polarity,
      ...(chosen ? { subject: chosen } : {}),
      ...(object ? { object } : {}),
      ...(head ? { head } : {}),
      ...(input.variant ? { variant: input.variant } : {}),
      ...(input.extensions?.length ? { extensions: input.extensions } : {}),
    };
    return ok({ engine, lemma: lemma.value, cell });
  }

  /** Accepts `penda`, `-pend-` (a root) and `kupenda` (an infinitive whose stem the lexicon knows). */
  #lemma(engine: LanguageEngine, input: string): Result<string> {
    const text = input.trim().toLowerCase().normalize('NFC');
    // A verb of more than one word (kuwa na 'have') is the verb and its particle, separated by single spaces.
    if (!/^-?[\p{L}']+(?: [\p{L}']+)*-?$/u.test(text) || text.length > 40) {
      return problem('invalid_parameter', 'root', `"${input}" is not a verb root: use letters only, e.g. penda, -pend- or kupenda`);
    }
    const verbs = engine.cartridge.verbs!;
    if (text.startsWith('-') || text.endsWith('-')) {
      const root = text.replace(/^-|-$/g, '');
      return ok(/[aeiou]$/u.test(root) ? root : root + verbs.default_fv);
    }
    const known = (lemma: string) => engine.cartridge.lexicon.some((e) => e.word_class === 'verb' && e.lemma === lemma);
    for (const prefix of infinitivePrefixes(verbs)) {
      if (!text.startsWith(prefix) || known(text)) continue;
      const stem = infinitiveStems(text.slice(prefix.length), verbs.prothetic_vowel?.vowel).find(known);
      if (stem) return ok(stem);
    }
    return ok(text);
  }

  #generationProblem(engine: LanguageEngine, error: unknown): Result<never> {
    if (error instanceof GenerationError) {
      const allowed = error.allowed ?? (error.parameter === 'tense' ? engine.generator.tenseIds : ['subject', 'object', 'agreement'].includes(error.parameter) ? engine.generator.agreementIds : undefined);
      return problem('invalid_parameter', error.parameter, error.message, allowed);
    }
    throw error;
  }

  #view(engine: LanguageEngine, lemma: string, cell: Cell, generated: Generated, includeTones = false): ConjugationResult {
    const words = generated.words.map((w) => wordView(w, (text) => engine.written(text)));
    const main = words[words.length - 1]!;
    const slots: ConjugationResult['slots'] = { ...main.slots };
    if (words.length > 1) slots.auxiliary = words[0]!;
    const lexeme = engine.generator.lexeme(lemma, cell.word_class);
    const tense = cell.tense ? engine.generator.tense(cell.tense) : undefined;
    return {
      language: engine.iso,
      lemma,
      root: lexeme.root,
      in_lexicon: lexeme.inLexicon,
      surface_form: engine.written(generated.surface),
      slots,
      words,
      tonal_analysis: tonalAnalysis(engine.cartridge.metadata, engine.tone, generated.words, { include: includeTones, root: lexeme.root, wordClass: cell.word_class }),
      english: engine.english(lemma, cell, generated.surface),
      features: {
        word_class: cell.word_class,
        ...(cell.tense ? { tense: cell.tense } : {}),
        ...(tense ? { mood: tense.mood } : {}),
        polarity: cell.polarity,
        ...(cell.subject ? { subject: cell.subject } : {}),
        ...(cell.object ? { object: cell.object } : {}),
        ...(cell.head ? { head: cell.head } : {}),
        ...(cell.variant ? { variant: cell.variant } : {}),
        ...(cell.extensions?.length ? { extensions: cell.extensions } : {}),
        ...(cell.noun_class ? { noun_class: cell.noun_class } : {}),
        ...(cell.number ? { number: cell.number } : {}),
        ...(cell.form ? { form: cell.form } : {}),
        ...(cell.possessee ? { possessee: cell.possessee } : {}),
      },
      rules_applied: [...new Set(generated.words.flatMap((w) => w.rules))],
    };
  }
}

/** A generated word as the service shows it, its surface and morphs written by `written` (LanguageEngine.written). */
function wordView(word: GeneratedWord, written: (text: string) => string): WordView {
  const slots: Record<string, SlotView> = {};
  for (const m of word.morphs) slots[m.slot] = { form: written(m.form), ...(m.id ? { id: m.id } : {}) };
  return { surface: written(word.surface), slots, ...(word.tense ? { tense: word.tense } : {}), polarity: word.polarity };
}

function person(row: AgreementRow | undefined): GlossPerson | undefined {
  if (!row) return undefined;
  return { person: row.person, number: row.number, ...(row.class ? { nounClass: row.class } : {}), human: row.human };
}

/** The senses of a gloss ('work, do' -> work, do); the lemma when there is none. */
function senses(text: string | null | undefined, lemma: string): string[] {
  const out = (text ?? '')
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return out.length > 0 ? out : [lemma];
}

/** The English gloss; a root outside the lexicon is shown as ‹lemma›. */
function gloss(engine: LanguageEngine, lemma: string, verbSenses: string[], known: boolean, cell: Cell): string {
  const tense = cell.tense ? engine.generator.tense(cell.tense) : undefined;
  // The negative's own template where the tense names one (a perfect's negative 'not yet').
  // ... else a template of its own for some verbs (a present simple read as a present of verbs of state), underived.
  const ownTemplate = tense && !cell.extensions?.length ? tense.lemma_gloss?.[engine.generator.lexeme(lemma).lemma] : undefined;
  const template = tense && cell.polarity === 'negative' && tense.negative_gloss !== undefined ? tense.negative_gloss : (ownTemplate ?? tense?.gloss);
  if (!tense || template === undefined || !(glossTenses as readonly string[]).includes(template)) return known ? verbSenses[0]! : `‹${verbSenses[0]!}›`;
  // Without a subject: an imperative speaks to 'you'; another form with no subject marker (a habitual
  // used for every person) has an unnamed subject, 'one usually reads', not 'you usually read'.
  const formation = cell.polarity === 'negative' ? tense.negative : tense.positive;
  // Extensions change the English verb (read for/to, make ... read, be read, love each other), unless
  // the derived verb is a lexical one with its own gloss (ona + causative = onyesha 'show').
  const derivation = engine.generator.derivation(lemma, cell.extensions ?? []);
  // ... and a passive or stative one without a subject is impersonal: husemekana 'it is usually said'.
  const impersonal = derivation.meanings.some((m) => m === 'passive' || m === 'stative');
  const unnamed: GlossPerson =
    template !== 'imperative' && formation.no_subject === true ? (impersonal ? { person: 3, number: 'sg', human: false } : { person: 3, number: 'sg', human: true, generic: true }) : { person: 2, number: 'sg' };
  const subject = person(cell.subject ? engine.generator.row(cell.subject) : undefined) ?? unnamed;
  const object: GlossObject | undefined = cell.object === 'refl' ? { reflexive: true } : person(cell.object ? engine.generator.row(cell.object) : undefined);
  const placeholder = 'zzverb';
  // A person as object, as a reflexive's or a reciprocal's other party, takes the sense English uses of people ('I love
  // you', 'they love themselves', not 'I want you').
  const personal = (object !== undefined && ('reflexive' in object ? isHuman(subject) : isHuman(object))) || (derivation.meanings.includes('reciprocal') && isHuman(subject));
  const sense = derivationSense(verbSenses, derivation.meanings, object !== undefined);
  const verb = (sense !== undefined && personal ? personalSense(verbSenses, sense) : sense) ?? lemma;
  // A verb whose perfect is a present state (mmanyi 'I know') is glossed in the present there, when underived.
  // A derived verb with its own English (a lexicon row or a derived gloss: jaa 'become full' + causative = jaza 'fill')
  // is another verb: the flag is its own headword's, and one with no headword has none.
  const stateLemma = derivation.gloss === undefined ? engine.generator.lexeme(lemma).lemma : derivation.lemma;
  const stateVerb = stateLemma !== undefined && engine.generator.flags(stateLemma).includes(RESULT_STATE_FLAG);
  const state = derivation.meanings.length === 0 && stateVerb;
  // The perfect of the passive of such a verb reports the passive state in the present: 'it is known', not 'it has been known'.
  const statePassive = stateVerb && template === 'perfect' && derivation.meanings.length === 1 && derivation.meanings[0] === 'passive';
  const read = state
    ? resultState(derivation.gloss ?? (known ? verb : placeholder), template as GlossTense, tense.state_gloss)
    : { verb: derivation.gloss ?? (known ? verb : placeholder), tense: (statePassive ? 'present' : template) as GlossTense };
  // The perfect of a stative derivation reports the state its change of state results in, as the perfect of a verb
  // flagged perfect_state does: 'it is broken' (the window is broken), not 'it has got broken'; the past stays the
  // event ('it got broken'), and so does a past relative.
  const change = !state && derivation.meanings.at(-1) === 'stative' && template !== 'relative_past' ? derivedVerb(read.verb, derivation.meanings, true) : undefined;
  const result = change?.startsWith('get ') ? resultState(change, template as GlossTense, tense.state_gloss) : undefined;
  const resulting = result !== undefined && result.tense !== template ? result : undefined;
  const english = resulting?.verb ?? derivedVerb(read.verb, derivation.meanings, isPerfective(read.tense));
  const head = cell.head !== undefined && cell.head !== cell.subject ? person(engine.generator.row(cell.head)) : undefined;
  // A reciprocal read as one, wherever it stands ('see each other', 'see each other for/to someone', 'work together'; not a stative + reciprocal potential).
  // (a causative after it makes the subject the causer of others' reciprocal action: 'make someone see each other')
  const mutual = derivation.meanings.some((m, i) => m === 'reciprocal' && derivation.meanings[i - 1] !== 'stative' && !derivation.meanings.slice(i + 1).includes('causative'));
  // A passive of an event keeps the progressive ('it is being eaten'); one of a state reads simple ('she/he is loved').
  const active = derivation.meanings.at(-1) === 'passive' ? derivedVerb(read.verb, derivation.meanings.slice(0, -1), isPerfective(read.tense)) : undefined;
  const eventPassive = active !== undefined && !isStative(active.split(/\s+/)[0] ?? '');
  const text = englishGloss({
    verb: english,
    subject,
    ...(object ? { object } : {}),
    ...(head ? { head } : {}),
    tense: resulting?.tense ?? read.tense,
    polarity: cell.polarity,
    ...(mutual ? { mutual } : {}),
    ...(eventPassive ? { eventPassive } : {}),
  });
  return known ? text : text.replace(/\bzzverb\w*/g, `‹${verb}›`);
}
