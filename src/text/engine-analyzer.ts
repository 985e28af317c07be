/**
 * The cartridge engine as a text analyser: each token's analyses from MorphologyService.analyze,
 * mapped to readings (TokenAnalysis). Used for every language that has no learned analyser.
 *
 * Probability: the engine ranks analyses by a plausibility score (a root in the lexicon +10, a
 * plain cell over a variant +2, no object marker +1, positive +0.5, a bare stem -3; see
 * src/morphology/analyzer.ts). A token's readings get p_i = exp(s_i) / Σ_j exp(s_j) over its
 * analyses (a softmax of the scores), so one point of score is a factor e ≈ 2.7 in odds and a
 * lexicon root outweighs a guess by e^10. The engine does not look at the neighbours.
 */
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import type { Morpheme, RankOptions, TextAnalyzer, TokenAnalysis } from './types.js';

/** The readings kept by default: the most probable ones that together hold this share ... */
export const DEFAULT_MASS = 0.95;
/** ... but never more than this many (`all` returns every reading). */
export const DEFAULT_MAX_READINGS = 5;

/** Softmax of plausibility scores (see the module comment). */
export function probabilitiesOf(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  const top = Math.max(...scores);
  const weights = scores.map((s) => Math.exp(s - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / sum);
}

/** Readings most probable first, cut to those holding DEFAULT_MASS of the probability (at most DEFAULT_MAX_READINGS) unless `all`. */
export function cutReadings<T extends { probability: number }>(readings: readonly T[], options: RankOptions = {}): T[] {
  const sorted = [...readings].sort((a, b) => b.probability - a.probability);
  if (options.all) return sorted;
  const kept: T[] = [];
  let mass = 0;
  for (const r of sorted) {
    if (kept.length >= DEFAULT_MAX_READINGS || (kept.length > 0 && mass >= DEFAULT_MASS)) break;
    kept.push(r);
    mass += r.probability;
  }
  return kept;
}

/** A noun class id as the tag set writes it: 1 -> 01, 1a -> 01a, 10 -> 10. */
function classTag(id: string | undefined): string {
  const m = /^c?(\d+)([a-z]*)$/.exec(id ?? '');
  return m ? `${m[1]!.padStart(2, '0')}${m[2]}` : '';
}

/**
 * The part of speech of an engine analysis in SADiLaR-II-style tags: V, N09, NLOC, POSS10, REL,
 * COP, ADJ07, ...; a word class the table does not know is written upper-case.
 */
export function posOf(features: AnalysisView['features']): string {
  const wc = features.word_class;
  if (wc === 'verb') return 'V';
  if (wc === 'noun') {
    switch (features.form) {
      case 'locative':
        return 'NLOC';
      case 'possessive':
        return `POSS${classTag(features.possessee)}`;
      case 'copulative':
        return 'COP';
      case 'relative_possessive':
        return 'REL';
      default:
        return `N${classTag(features.noun_class)}`;
    }
  }
  if (wc.startsWith('adjective')) return wc === 'adjective' ? `ADJ${classTag(features.subject)}` : 'REL';
  return wc.toUpperCase();
}

/** The coarse word class of an analysis (a noun's derived forms are their own class: a locative is not a noun). */
export function wordClassOf(features: AnalysisView['features']): string {
  if (features.word_class !== 'noun') return features.word_class.startsWith('adjective_rel') ? 'relative' : features.word_class;
  switch (features.form) {
    case 'locative':
      return 'locative';
    case 'possessive':
      return 'possessive';
    case 'copulative':
      return 'copulative';
    case 'relative_possessive':
      return 'relative';
    default:
      return 'noun';
  }
}

/** The morphemes of an analysis: each filled slot of each word, the root slot with the root as canonical form. */
export function morphemesOf(view: Pick<AnalysisView, 'words' | 'root'>): Morpheme[] {
  const out: Morpheme[] = [];
  for (const word of view.words) {
    for (const [slot, filled] of Object.entries(word.slots)) {
      out.push({ surface: filled.form, canonical: slot === 'root' ? view.root : filled.form, tag: filled.id ? `${slot}:${filled.id}` : slot });
    }
  }
  return out;
}

/** An engine analysis as a reading, with its probability. */
export function readingOf(view: AnalysisView, probability: number): TokenAnalysis {
  const morphemes = morphemesOf(view);
  return {
    lemma: view.lemma,
    pos: posOf(view.features),
    word_class: wordClassOf(view.features),
    morphemes,
    probability,
    guess: !view.in_lexicon,
    source: !view.in_lexicon ? 'guess' : morphemes.length <= 1 ? 'lexicon' : 'rule',
    gloss: view.gloss,
    stem_source: view.in_lexicon ? 'cartridge' : null,
  };
}

/** The engine's analyses of `language`'s words as readings; readings of a form are remembered (up to `cacheSize` forms). */
export class EngineTextAnalyzer implements TextAnalyzer {
  readonly #cache = new Map<string, TokenAnalysis[]>();

  constructor(
    readonly language: string,
    private readonly morphology: MorphologyService,
    private readonly cacheSize = 20_000,
  ) {}

  analyzeTokens(tokens: readonly string[], options: RankOptions = {}): TokenAnalysis[][] {
    return tokens.map((token) => cutReadings(this.readings(token), options));
  }

  /** Every reading of one form, most probable first. */
  readings(form: string): TokenAnalysis[] {
    const cached = this.#cache.get(form);
    if (cached) return cached;
    const result = this.morphology.analyze(form, this.language);
    const views = result.ok ? [...result.value] : [];
    // A capitalised word (a sentence's first, a title) is also read as the word written small:
    // the engine reads the exact form first and would otherwise only guess a name-like noun.
    const lower = form.toLowerCase();
    if (lower !== form) {
      const small = this.morphology.analyze(lower, this.language);
      if (small.ok) views.push(...small.value);
    }
    const probabilities = probabilitiesOf(views.map((v) => v.score));
    const readings = merge(views.map((v, i) => readingOf(v, probabilities[i]!)));
    if (this.#cache.size >= this.cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(form, readings);
    return readings;
  }
}

/**
 * Readings that a caller cannot tell apart (same lemma, part of speech and morphemes: the engine
 * found them through different cells, such as two object readings without an object marker) as
 * one, their probabilities summed; most probable first.
 */
function merge(readings: TokenAnalysis[]): TokenAnalysis[] {
  const byKey = new Map<string, TokenAnalysis>();
  for (const r of readings) {
    const key = [r.lemma, r.pos, r.guess, ...r.morphemes.map((m) => `${m.surface}|${m.canonical}|${m.tag}`)].join('\u0001');
    const seen = byKey.get(key);
    if (seen) seen.probability += r.probability;
    else byKey.set(key, { ...r });
  }
  return [...byKey.values()].sort((a, b) => b.probability - a.probability);
}
