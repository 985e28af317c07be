/**
 * HFST lookup as a service: list the models of the models folder, analyse with an
 * analyser, generate with a generator. REST routes, the CLI and MCP tools (hfst_analyze,
 * hfst_generate, hfst_list_models) are thin adapters over this class; the zod schemas
 * below are their inputs and outputs.
 */
import { z } from 'zod';
import { wordText } from '../word-text.js';
import { fail, ok, type Result } from '../result.js';
import type { ModelEntry, ModelRegistry } from './models.js';
import { HfstFormatError, lookupNormalised, type Transducer } from './transducer.js';
import { MAX_LOOKUP_INPUTS } from '../access/plans.js';

const modelName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a model name from hfst_list_models');

/** Input of hfst_analyze / hfst_generate. */
export const hfstLookupInputSchema = z
  .object({
    model: modelName.optional().describe('Model name (see the model list). Give this or `language`.'),
    language: z.string().min(2).max(20).optional().describe('Language code: use the first model of this language for the direction. Give this or `model`.'),
    inputs: z.array(wordText(500)).min(1).max(MAX_LOOKUP_INPUTS).describe("Words to analyse (hfst_analyze) or analysis strings to generate from (hfst_generate), in the model's tag convention."),
    n_best: z.number().int().min(1).max(1000).optional().describe('Keep at most this many results per input (the best ones when the model is weighted).'),
    beam: z.number().min(0).max(1e9).optional().describe('Weighted models: keep results within this weight of the best.'),
    unique: z.boolean().default(true).describe('Drop repeated results.'),
    fallback: z.boolean().default(true).describe("Analysers: when the model has no analysis for a word, ask the model's fallback (Lugha's verb analysers fall back on their guesser, whose analyses end in +Guess)."),
  })
  .strict()
  .refine((v) => v.model !== undefined || v.language !== undefined, { message: 'give `model` or `language`', path: ['model'] });

export type HfstLookupInput = z.input<typeof hfstLookupInputSchema>;

export const hfstResultSchema = z.object({
  output: z.string().describe('An analysis (hfst_analyze) or a surface form (hfst_generate).'),
  weight: z.number().describe('Path weight (0 for unweighted models); lower is better.'),
});

export const hfstLookupItemSchema = z.object({
  input: z.string(),
  results: z.array(hfstResultSchema).describe('Empty when the model has no path for the input.'),
  known_symbols: z.boolean().describe('False when the input contains characters the model does not read.'),
  truncated: z.enum(['depth', 'results', 'time']).optional().describe('Set when a search bound stopped the lookup early (cyclic or very ambiguous models).'),
  fallback: z.string().optional().describe("Set when the model had no analysis and its fallback model (a guesser) gave these results: the fallback's name."),
});

export const hfstLookupOutputSchema = z.object({
  model: z.string(),
  direction: z.enum(['analyse', 'generate']),
  items: z.array(hfstLookupItemSchema),
});
export type HfstLookupOutput = z.infer<typeof hfstLookupOutputSchema>;

/** One model as hfst_list_models describes it. */
export const hfstModelSchema = z.object({
  name: z.string(),
  language: z.string(),
  direction: z.enum(['analyse', 'generate']),
  tag_convention: z.string(),
  licence: z.string(),
  source: z.string(),
  description: z.string().nullable(),
  origin: z.enum(['lugha', 'third_party']).describe('lugha: built from a Lugha cartridge and downloadable; third_party: installed by the operator.'),
  fallback: z.string().nullable().describe('Analysers: the model asked for words this one cannot read (a guesser), or null.'),
  weighted: z.boolean().nullable().describe('Null when the file could not be read.'),
  bytes: z.number().int(),
  input_symbols: z.number().int().nullable(),
  tags: z.array(z.string()).describe('Output-only symbols of the transducer (typically its tags); at most 500.'),
  flag_diacritics: z.number().int().nullable(),
  usable: z.boolean(),
});
export type HfstModel = z.infer<typeof hfstModelSchema>;

export const hfstListModelsInputSchema = z
  .object({
    language: z.string().min(2).max(20).optional().describe('Only models of this language.'),
    direction: z.enum(['analyse', 'generate']).optional(),
  })
  .strict();
export type HfstListModelsInput = z.infer<typeof hfstListModelsInputSchema>;

export type HfstFailure = 'model_not_found' | 'invalid_parameter' | 'model_unreadable';

/**
 * Lookup bounds per input: generation through tags after the lemma explores every prefix, so it
 * gets time and result caps. One lookup runs without yielding, so its time cap is what the event
 * loop may wait on it: 80 ms, under the service's 100 ms goal for any request.
 */
const LIMITS = { maxDepth: 5000, maxResults: 2000, timeLimitMs: 80 };
/** Time for a whole call; inputs left when it is spent come back empty with `truncated: "time"`. */
const CALL_TIME_LIMIT_MS = 5000;
/** A call gives the event loop a turn once it has run this long since its last turn. */
const SLICE_MS = 20;

/** One turn of the event loop for the other requests. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class HfstService {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly options: {
      normaliseLanguage?: (code: string) => string | undefined;
      /** How long a call runs before it gives the event loop a turn (default 20 ms; tests use 0: a turn before every lookup). */
      sliceMs?: number;
    } = {},
  ) {}

  /** hfst_list_models: every usable model, filtered by language and direction. */
  listModels(input: HfstListModelsInput = {}): HfstModel[] {
    const language = input.language === undefined ? undefined : this.#language(input.language);
    return this.registry
      .list()
      .filter((e) => (language === undefined || this.#language(e.manifest.language) === language) && (!input.direction || e.manifest.direction === input.direction))
      .map((e) => this.#describe(e));
  }

  /** hfst_analyze: analyses of each word with an analyser; inputs are looked up in slices that yield to other requests. */
  analyze(input: HfstLookupInput): Promise<Result<HfstLookupOutput, HfstFailure>> {
    return this.#lookup(input, 'analyse');
  }

  /** hfst_generate: surface forms of each analysis with a generator; inputs are looked up in slices that yield to other requests. */
  generate(input: HfstLookupInput): Promise<Result<HfstLookupOutput, HfstFailure>> {
    return this.#lookup(input, 'generate');
  }

  /** A model by name, for downloads and the CLI. */
  model(name: string): ModelEntry | undefined {
    return this.registry.get(name);
  }

  /** The loaded transducer of a model. */
  transducer(entry: ModelEntry): Result<Transducer, 'model_unreadable'> {
    try {
      return ok(this.registry.transducer(entry));
    } catch (error) {
      if (error instanceof HfstFormatError) return fail('model_unreadable', `model ${entry.name} cannot be read: ${error.message}`);
      throw error;
    }
  }

  async #lookup(raw: HfstLookupInput, direction: 'analyse' | 'generate'): Promise<Result<HfstLookupOutput, HfstFailure>> {
    const parsed = hfstLookupInputSchema.safeParse(raw);
    if (!parsed.success) return fail('invalid_parameter', parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    const input = parsed.data;
    const entry = this.resolveModel(input.model, input.language, direction);
    if (!entry.ok) return entry;
    const loaded = this.transducer(entry.value);
    if (!loaded.ok) return loaded;
    const fallback = direction === 'analyse' && input.fallback ? this.#fallback(entry.value) : undefined;
    const deadline = performance.now() + CALL_TIME_LIMIT_MS;
    const sliceMs = this.options.sliceMs ?? SLICE_MS;
    let turn = performance.now();
    /** Yields when this call has held the loop for a slice; a lookup's own cap bounds each step between turns. */
    const maybeYield = async () => {
      if (performance.now() - turn < sliceMs) return;
      await yieldToLoop();
      turn = performance.now();
    };
    const items: HfstLookupOutput['items'] = [];
    for (const text of input.inputs) {
      await maybeYield();
      const remaining = Math.floor(deadline - performance.now());
      if (remaining <= 0) {
        items.push({ input: text, results: [], known_symbols: true, truncated: 'time' as const });
        continue;
      }
      const options = { ...LIMITS, timeLimitMs: Math.min(LIMITS.timeLimitMs, remaining), unique: input.unique, nBest: input.n_best, beam: input.beam };
      let result = lookupNormalised(loaded.value, entry.value.manifest.normalize, text, options);
      let answeredBy: string | undefined;
      if (result.results.length === 0 && !result.truncated && fallback) {
        await maybeYield();
        const guessed = lookupNormalised(fallback.transducer, fallback.entry.manifest.normalize, text, { ...options, timeLimitMs: Math.max(1, Math.min(options.timeLimitMs, Math.floor(deadline - performance.now()))) });
        if (guessed.results.length > 0 || guessed.truncated) {
          result = { ...guessed, tokenized: result.tokenized || guessed.tokenized };
          answeredBy = fallback.entry.name;
        }
      }
      items.push({
        input: text,
        results: result.results.map((r) => ({ output: r.output, weight: r.weight })),
        known_symbols: result.tokenized,
        ...(result.truncated ? { truncated: result.truncated } : {}),
        ...(answeredBy ? { fallback: answeredBy } : {}),
      });
    }
    return ok({ model: entry.value.name, direction, items });
  }

  /**
   * The model a call names: by `model` (also its base name, NAME-analyser / NAME-generator),
   * else the first model of `language` in `direction` that is no other model's fallback.
   */
  resolveModel(model: string | undefined, language: string | undefined, direction: 'analyse' | 'generate'): Result<ModelEntry, HfstFailure> {
    const names = () =>
      this.registry
        .list()
        .filter((e) => e.manifest.direction === direction)
        .map((e) => e.name);
    const verb = direction === 'analyse' ? 'analyser' : 'generator';
    if (model !== undefined) {
      const entry = this.registry.get(model) ?? this.registry.get(`${model}-${verb}`);
      if (!entry) return fail('model_not_found', `no model "${model}"; ${verb}s: ${names().join(', ') || 'none installed'}`);
      if (entry.manifest.direction !== direction) {
        return fail('invalid_parameter', `model "${model}" is ${entry.manifest.direction === 'analyse' ? 'an analyser' : 'a generator'}; ${verb}s: ${names().join(', ') || 'none installed'}`);
      }
      return ok(entry);
    }
    if (language === undefined) return fail('invalid_parameter', 'give a model name or a language');
    const wanted = this.#language(language);
    const candidates = this.registry.list().filter((e) => e.manifest.direction === direction && this.#language(e.manifest.language) === wanted);
    // A guesser named as another analyser's fallback is not the language's analyser.
    const fallbacks = new Set(this.registry.list().map((e) => e.manifest.fallback));
    const entry = candidates.find((e) => !fallbacks.has(e.name)) ?? candidates[0];
    if (!entry) return fail('model_not_found', `no ${verb} for language "${language}"; ${verb}s: ${names().join(', ') || 'none installed'}`);
    return ok(entry);
  }

  /** The loaded fallback of an analyser (none when it names none or cannot be read). */
  #fallback(entry: ModelEntry): { entry: ModelEntry; transducer: Transducer } | undefined {
    const name = entry.manifest.fallback;
    const target = name === undefined ? undefined : this.registry.get(name);
    if (!target) return undefined;
    const loaded = this.transducer(target);
    return loaded.ok ? { entry: target, transducer: loaded.value } : undefined;
  }

  #language(code: string): string {
    return this.options.normaliseLanguage?.(code) ?? code.toLowerCase();
  }

  #describe(entry: ModelEntry): HfstModel {
    const m = entry.manifest;
    const loaded = this.transducer(entry);
    const info = loaded.ok ? loaded.value.info : undefined;
    return {
      name: entry.name,
      language: m.language,
      direction: m.direction,
      tag_convention: m.tags,
      licence: m.licence,
      source: m.source,
      description: m.description ?? null,
      origin: m.origin,
      fallback: m.fallback ?? null,
      weighted: info?.weighted ?? null,
      bytes: entry.bytes,
      input_symbols: info ? info.inputSymbols.length : null,
      tags: info ? tagsOf(info, m.direction).slice(0, 500) : [],
      flag_diacritics: info ? info.flags.length : null,
      usable: info !== undefined,
    };
  }
}

/** The tags of a model: output-only symbols of an analyser, input-only multi-character symbols of a generator. */
function tagsOf(info: Transducer['info'], direction: 'analyse' | 'generate'): string[] {
  if (direction === 'analyse') return info.outputOnlySymbols;
  return info.inputSymbols.filter((s) => [...s].length > 1);
}
