/**
 * The tone services behind the REST route and the MCP tools get_tonal_pairs, predict_tones,
 * get_minimal_pairs and get_tonal_analysis: tone-marked lexical data (reference/tone/ and the
 * cartridges' tone.yaml, read on the first call that needs it) with the pairs computed once, and the tone engine through the
 * morphology service. Inputs and outputs have zod schemas in src/tone/api.ts; failures are values.
 */
import type { LanguageCodes } from '../language-codes.js';
import type { ConjugationResult, MorphologyService } from '../morphology/service.js';
import { ok, problem, type Result } from '../result.js';
import { asksForConjugatedForm, minimalPairsInputSchema, predictTonesInputSchema, tonalAnalysisInputSchema, type predictTonesOutputSchema, type MinimalPair, type TonalPair } from './api.js';
import type { z } from 'zod';
import { runToneGolden, type GoldenToneResult } from './golden.js';
import { stripTones } from './marks.js';
import { minimalPairs, minimalPairSteps, referenceToneSteps, tonalPairs, toneString, type LanguageItem } from './pairs.js';
import { runSteps, runStepsInSlices } from '../steps.js';

export { minimalPairSchema, minimalPairsInputSchema, predictTonesInputSchema, predictTonesOutputSchema, tonalAnalysisInputSchema, tonalAnalysisSchema, tonalPairSchema, tonalPairsQuerySchema } from './api.js';

export type PredictTonesOutput = z.infer<typeof predictTonesOutputSchema>;

export type { GoldenToneResult } from './golden.js';

export class ToneService {
  #data: { items: LanguageItem[]; pairs: TonalPair[] } | undefined;
  #loading: Promise<void> | undefined;
  readonly #minimal = new Map<string, MinimalPair[]>();

  /**
   * The tone data (reference/tone/ and every cartridge's tone entries, 160-900 ms) is read on the
   * first call that needs it, not here: `tonalAnalysis` and a conjugated `predictTones` only need the
   * engine, and a server builds this service before any call. `loadInBackground` reads it in slices.
   */
  constructor(
    private readonly options: { morphology: MorphologyService; codes: LanguageCodes; referenceDir: string },
    items?: LanguageItem[],
  ) {
    if (items) this.#data = { items, pairs: tonalPairs(items) };
  }

  /**
   * The same service as `new ToneService(options)`, its items read in slices of about `sliceMs`
   * that yield to the event loop (for a server warming in the background).
   */
  static async openInBackground(options: { morphology: MorphologyService; codes: LanguageCodes; referenceDir: string }, sliceMs = 20): Promise<ToneService> {
    const service = new ToneService(options);
    await service.loadInBackground(sliceMs);
    return service;
  }

  /** Whether the tone data has been read (a call that needs it will not wait on a read). */
  get loaded(): boolean {
    return this.#data !== undefined;
  }

  /**
   * Reads the tone data in slices of about `sliceMs` that yield to the event loop, once: callers
   * that come while it is read wait for that read. An edge awaits it before a call that needs the
   * data, so that the call does not read it at once and hold the event loop meanwhile.
   */
  loadInBackground(sliceMs = 20): Promise<void> {
    if (this.#data) return Promise.resolve();
    this.#loading ??= runStepsInSlices(toneItemSteps(this.options), sliceMs).then((items) => {
      // A synchronous caller may have read the data meanwhile: that one is kept.
      this.#data ??= { items, pairs: tonalPairs(items) };
    });
    return this.#loading;
  }

  /** The tone data, read at once if nothing has read it yet. */
  get #items(): LanguageItem[] {
    return this.#loaded().items;
  }

  get #pairs(): TonalPair[] {
    return this.#loaded().pairs;
  }

  #loaded(): { items: LanguageItem[]; pairs: TonalPair[] } {
    if (!this.#data) {
      const items = runSteps(toneItemSteps(this.options));
      this.#data = { items, pairs: tonalPairs(items) };
    }
    return this.#data;
  }

  /** Languages with tone-marked lexical data, with item and tonal-pair counts. */
  languages(): Array<{ language: string; items: number; tonal_pairs: number; datasets: string[] }> {
    const out = new Map<string, { language: string; items: number; tonal_pairs: number; datasets: Set<string> }>();
    for (const i of this.#items) {
      const entry = out.get(i.language) ?? { language: i.language, items: 0, tonal_pairs: 0, datasets: new Set<string>() };
      entry.items++;
      entry.datasets.add(i.source.dataset);
      out.set(i.language, entry);
    }
    for (const p of this.#pairs) out.get(p.language)!.tonal_pairs++;
    return [...out.values()].map((e) => ({ ...e, datasets: [...e.datasets].sort() })).sort((a, b) => a.language.localeCompare(b.language));
  }

  /** Items identical in segments and different in tone (get_tonal_pairs). */
  tonalPairs(input: { language?: string | undefined } = {}): Result<TonalPair[]> {
    if (input.language === undefined) return ok(this.#pairs);
    const language = this.#language(input.language, 'language');
    if (!language.ok) return language;
    return ok(this.#pairs.filter((p) => p.language === language.value));
  }

  /** Pairs one tone or one segment apart, filtered (get_minimal_pairs). */
  minimalPairs(raw: z.input<typeof minimalPairsInputSchema>): Result<MinimalPair[]> {
    const parsed = minimalPairsInputSchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    const input = parsed.data;
    let languages: string[];
    if (input.language !== undefined) {
      const language = this.#language(input.language, 'language');
      if (!language.ok) return language;
      languages = [language.value];
    } else {
      languages = [...new Set(this.#items.map((i) => i.language))].sort();
    }
    const contains = input.contains ? stripTones(input.contains).toLowerCase() : undefined;
    const gloss = input.gloss?.toLowerCase();
    const out: MinimalPair[] = [];
    for (const language of languages) {
      for (const p of this.#minimalOf(language)) {
        if (input.kind !== 'any' && p.kind !== input.kind) continue;
        if (contains && !p.a.segments.toLowerCase().includes(contains) && !p.b.segments.toLowerCase().includes(contains)) continue;
        if (gloss && !p.a.gloss.includes(gloss) && !p.b.gloss.includes(gloss)) continue;
        out.push(p);
        if (out.length >= input.limit) return ok(out);
      }
    }
    return ok(out);
  }

  /** Tones of a word (its recorded lexical tone) or of a root in a conjugated form (predict_tones). */
  predictTones(raw: z.input<typeof predictTonesInputSchema>): Result<PredictTonesOutput> {
    const parsed = predictTonesInputSchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    const input = parsed.data;
    if (input.root !== undefined && asksForConjugatedForm(input)) {
      const analysed = this.tonalAnalysis({ language: input.language, root: input.root, ...pick(input) });
      if (!analysed.ok) return analysed;
      return ok({ language: analysed.value.language, kind: 'conjugated', items: [], roots: [], surface_form: analysed.value.surface_form, tonal_analysis: analysed.value.tonal_analysis });
    }
    const language = this.#language(input.language, 'language', true);
    if (!language.ok) return language;
    const word = stripTones(input.word ?? input.root!)
      .toLowerCase()
      .replace(/^-|-$/g, '');
    const items = this.#items.filter((i) => i.language === language.value && i.segments.toLowerCase().replace(/^-|-$/g, '') === word);
    const engine = this.options.morphology.engine(language.value);
    const entry = engine.ok ? (engine.value.tone?.lexicalTone(word) ?? engine.value.tone?.lexicalTone(engine.value.generator.lexeme(word).root)) : undefined;
    const roots = entry ? [{ root: entry.root, tone: entry.tone, source: entry.source }] : [];
    return ok({ language: language.value, kind: 'lexical', items: items.map(({ language: _l, ...rest }) => rest), roots });
  }

  /** The tonal analysis of a conjugated form (get_tonal_analysis). */
  tonalAnalysis(raw: z.input<typeof tonalAnalysisInputSchema>): Result<Pick<ConjugationResult, 'language' | 'surface_form' | 'tonal_analysis'>> {
    const parsed = tonalAnalysisInputSchema.safeParse(raw);
    if (!parsed.success) return invalid(parsed.error);
    const result = this.options.morphology.conjugate({ ...parsed.data, include_tones: true });
    if (!result.ok) return result;
    return ok({ language: result.value.language, surface_form: result.value.surface_form, tonal_analysis: result.value.tonal_analysis });
  }

  /** Runs the golden tone cases of every cartridge (or one language) through the engine (src/tone/golden.ts). */
  golden(language?: string): GoldenToneResult[] {
    return runToneGolden(this.options.morphology, language);
  }

  /** Computes one language's minimal pairs (as `minimalPairs` would on first use) in slices that yield: a warm-up step. */
  async prepareMinimalPairsInBackground(language: string, sliceMs = 20): Promise<void> {
    if (this.#minimal.has(language)) return;
    const pairs = await runStepsInSlices(minimalPairSteps(this.#items.filter((i) => i.language === language)), sliceMs);
    if (!this.#minimal.has(language)) this.#minimal.set(language, pairs);
  }

  #minimalOf(language: string): MinimalPair[] {
    let pairs = this.#minimal.get(language);
    if (!pairs) {
      pairs = minimalPairs(this.#items.filter((i) => i.language === language));
      this.#minimal.set(language, pairs);
    }
    return pairs;
  }

  /** A language code with tone data (or, with `anyKnown`, any known code), normalised. */
  #language(code: string, parameter: string, anyKnown = false): Result<string> {
    const iso = this.options.codes.normalise(code) ?? code.trim().toLowerCase();
    const withData = [...new Set(this.#items.map((i) => i.language))].sort();
    if (withData.includes(iso)) return ok(iso);
    if (anyKnown && this.options.morphology.engine(iso).ok) return ok(iso);
    if (!this.options.codes.normalise(code) && !this.options.morphology.engine(code).ok) {
      return problem('language_not_found', parameter, `unknown language "${code}"`, withData);
    }
    return problem('invalid_parameter', parameter, `no tone-marked lexical data for "${code}"`, withData);
  }
}

/** Tone-marked entries of the cartridges' tone.yaml (lexical entries with a `marked` form). */
function* cartridgeItemSteps(morphology: MorphologyService): Generator<void, LanguageItem[]> {
  const out: LanguageItem[] = [];
  // installed(), not languages(): the codes alone, without every language's summary (golden tests, counts).
  for (const iso of morphology.installed()) {
    yield;
    const found = morphology.engine(iso);
    if (!found.ok || !found.value.cartridge.tone) continue;
    for (const list of found.value.cartridge.tone.words) {
      for (const entry of list.entries) {
        const form = entry.marked.normalize('NFC');
        out.push({ language: iso, variety: null, form, segments: stripTones(form), tones: toneString(form), gloss: entry.gloss, source: { dataset: 'cartridge', source: entry.source ?? list.source } });
      }
    }
    for (const list of found.value.cartridge.tone.lexical) {
      for (const entry of list.entries) {
        if (!entry.marked) continue;
        const form = entry.marked.normalize('NFC');
        out.push({
          language: iso,
          variety: null,
          form,
          segments: stripTones(form),
          tones: toneString(form),
          gloss: entry.gloss ?? '',
          source: { dataset: 'cartridge', source: entry.source ?? list.source },
        });
      }
    }
  }
  return out;
}

/** Every tone item: reference/tone/, then the cartridges' (a pause between rows and languages). */
function* toneItemSteps(options: { morphology: MorphologyService; referenceDir: string }): Generator<void, LanguageItem[]> {
  const reference = yield* referenceToneSteps(options.referenceDir);
  const cartridges = yield* cartridgeItemSteps(options.morphology);
  return [...reference, ...cartridges];
}

function pick(input: { tense?: string | undefined; subject?: string | undefined; object?: string | undefined; polarity?: 'positive' | 'negative' | undefined }) {
  return {
    ...(input.tense ? { tense: input.tense } : {}),
    ...(input.subject ? { subject: input.subject } : {}),
    ...(input.object ? { object: input.object } : {}),
    ...(input.polarity ? { polarity: input.polarity } : {}),
  };
}

function invalid(error: z.ZodError): Result<never> {
  const issue = error.issues[0]!;
  return problem('invalid_parameter', issue.path.join('.') || 'input', issue.message);
}
