/**
 * The cartridge engine's readings of a token, offered to a learnt analyser (learned-analyzer.ts) for
 * the tokens it can only guess: a verb form whose prefixes are rare or absent in the annotated text
 * (an exclusive perfect se-ngi-hamb-ile, a not-yet tense a-ka-ka-hamb-i) that the engine builds from
 * the cartridge's template. Only readings of the word classes asked for (verbs by default) whose root
 * the cartridge's lexicon lists are offered: an engine guess says nothing a learnt guess does not.
 * The readings carry the engine's own tags (`subject:c2`, POS `V`); a verb in the relative mood has the word
 * class `relative`. The learnt analyser gives them its text's tags by the table its model learnt (engine-tags.ts).
 */
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import type { Result } from '../result.js';
import { probabilitiesOf, readingOf } from './engine-analyzer.js';
import type { TokenAnalysis } from './types.js';

/** Readings from outside a learnt model, for the tokens it has only guesses for. */
export interface FallbackReadings {
  /** The readings of `token` (lower-cased by the caller), most probable first, their probabilities summing to 1; none when there are none. */
  readings(token: string): TokenAnalysis[];
  /** Computes the readings of `tokens` in slices that yield to the event loop, so `readings` then finds them ready. */
  prepare?(tokens: readonly string[]): Promise<void>;
}

/** The engine's readings of tokens of one language (cached, at most `cacheSize` tokens). */
export class EngineReadings implements FallbackReadings {
  readonly #cache = new Map<string, TokenAnalysis[]>();
  readonly #classes: ReadonlySet<string>;
  readonly #cacheSize: number;

  constructor(
    readonly language: string,
    private readonly morphology: MorphologyService,
    options: { wordClasses?: readonly string[]; cacheSize?: number } = {},
  ) {
    this.#classes = new Set(options.wordClasses ?? ['verb']);
    this.#cacheSize = options.cacheSize ?? 20_000;
  }

  readings(token: string): TokenAnalysis[] {
    const cached = this.#cache.get(token);
    if (cached) return cached;
    const readings = this.#readingsOf(this.morphology.analyze(token, this.language));
    this.#remember(token, readings);
    return readings;
  }

  async prepare(tokens: readonly string[]): Promise<void> {
    for (const token of tokens) {
      if (this.#cache.has(token)) continue;
      const result = await this.morphology.analyzeInSlices(token, this.language);
      if (!this.#cache.has(token)) this.#remember(token, this.#readingsOf(result));
    }
  }

  #remember(token: string, readings: TokenAnalysis[]): void {
    if (this.#cache.size >= this.#cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(token, readings);
  }

  /** The analyses of the word classes asked for whose root the lexicon lists, as readings (probabilities by their engine scores, among themselves). */
  #readingsOf(result: Result<AnalysisView[]>): TokenAnalysis[] {
    if (!result.ok) return [];
    const views = result.value.filter((v) => v.in_lexicon && this.#classes.has(v.features.word_class));
    const probabilities = probabilitiesOf(views.map((v) => v.score));
    const readings = views.map((v, k) => {
      const reading = readingOf(v, probabilities[k]!);
      return v.features.word_class === 'verb' && v.features.mood === 'relative' ? { ...reading, word_class: 'relative' } : reading;
    });
    return readings.sort((a, b) => b.probability - a.probability);
  }
}
