/**
 * The learnt analyser of running text: candidate readings from the language's text model
 * (learned-model.ts), ranked in context by an averaged perceptron (word, its template and stem
 * features, the neighbouring words and the previous token's part of speech), turned into
 * probabilities by a softmax and cut to the readings holding 95% of the probability (at most 5).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { candidatesOf, contextKeys, isContextFeature, loadModel, nounClassOfPos, priorPos, type Candidate, type LearnedModel } from './learned-model.js';
import type { RankOptions, TextAnalyzer, TokenAnalysis } from './types.js';

/** The share of the probability the default cut keeps, and the most readings it returns. */
export const DEFAULT_MASS = 0.95;
export const DEFAULT_MAX = 5;

const CACHE_LIMIT = 100_000;
/** Longer tokens are not cached (a cache of 100,000 pathological 10,000-letter tokens would be a gigabyte). */
const CACHE_TOKEN_LIMIT = 64;

interface Scored {
  candidates: Candidate[];
  /** Score of each candidate from the features that ignore the neighbours. */
  base: number[];
  /** Each candidate's POS split into its tag and class number (for the agreement feature). */
  own: string[];
  head: string[];
  /** The token's candidates come from templates (it is not in the word-form table). */
  unseen: boolean;
}

/** Context features `kind=context|POS` regrouped as `kind=context` -> POS -> weight (a loaded model has them so already). */
function contextTable(weights: ReadonlyMap<string, number>): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  for (const [feature, weight] of weights) {
    if (!isContextFeature(feature)) continue;
    const bar = feature.lastIndexOf('|');
    const context = feature.slice(0, bar);
    let byPos = table.get(context);
    if (!byPos) table.set(context, (byPos = new Map()));
    byPos.set(feature.slice(bar + 1), weight);
  }
  return table;
}

/** Sum of the weights of `features`. */
export function scoreOf(weights: ReadonlyMap<string, number>, features: readonly string[]): number {
  let score = 0;
  for (const f of features) score += weights.get(f) ?? 0;
  return score;
}

/** Probabilities of the scores (softmax at `scale`), in the scores' order. */
export function softmax(scores: readonly number[], scale: number): number[] {
  let max = -Infinity;
  for (const s of scores) if (s > max) max = s;
  const exps = scores.map((s) => Math.exp((s - max) * scale));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** Readings sorted by probability, cut to those holding `mass` of it (at most `max`) unless `all`. */
export function cutReadings<T extends { probability: number }>(sorted: T[], options?: RankOptions): T[] {
  if (options?.all) return sorted;
  const kept: T[] = [];
  let mass = 0;
  for (const r of sorted) {
    kept.push(r);
    mass += r.probability;
    if (mass >= DEFAULT_MASS || kept.length >= DEFAULT_MAX) break;
  }
  return kept;
}

/** A text analyser over one learnt model. */
export class LearnedTextAnalyzer implements TextAnalyzer {
  readonly language: string;
  private readonly cache = new Map<string, Scored>();
  private context: Map<string, Map<string, number>> | undefined;

  constructor(readonly model: LearnedModel) {
    this.language = model.language;
  }

  private scored(token: string): Scored {
    let hit = this.cache.get(token);
    if (!hit) {
      const candidates = candidatesOf(this.model, token);
      for (const c of candidates) {
        for (const m of c.morphemes) Object.freeze(m);
        Object.freeze(c.morphemes);
      }
      const split = candidates.map((c) => /^(\D+?)0*(\d+a?)$/.exec(c.pos));
      hit = {
        candidates,
        base: candidates.map((c) => scoreOf(this.model.weights, c.features)),
        own: split.map((m) => (m ? m[2]! : '')),
        head: split.map((m, k) => (m ? m[1]! : candidates[k]!.pos)),
        unseen: candidates.length > 0 && candidates[0]!.source !== 'lexicon',
      };
      if (token.length <= CACHE_TOKEN_LIMIT) {
        if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
        this.cache.set(token, hit);
      }
    }
    return hit;
  }

  analyzeTokens(tokens: readonly string[], options?: RankOptions): TokenAnalysis[][] {
    const out: TokenAnalysis[][] = [];
    const context = (this.context ??= this.model.context ?? contextTable(this.model.weights));
    const weights = this.model.weights;
    let previousPos = '<s>';
    let previousPos2 = '<s>';
    let headClass = '';
    let next = tokens.length > 0 && tokens[0] !== '' ? this.scored(tokens[0]!) : undefined;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const here = next;
      next = i + 1 < tokens.length ? (tokens[i + 1] === '' ? { candidates: [], base: [], own: [], head: [], unseen: true } : this.scored(tokens[i + 1]!)) : undefined;
      if (here === undefined || here.candidates.length === 0) {
        out.push([]);
        if (token !== '') {
          previousPos2 = previousPos;
          previousPos = '<unk>';
        }
        continue;
      }
      const { candidates, base, own, head } = here;
      // The same features as contextFeatures() in learned-model.ts, looked up by context first.
      const keys = contextKeys({
        token,
        unseen: here.unseen,
        previousPos,
        previousPos2,
        previous: i === 0 ? undefined : tokens[i - 1],
        next: tokens[i + 1],
        nextPos: priorPos(next?.candidates),
        headClass,
      });
      const tables = keys.map((k) => context.get(k));
      const scores = candidates.map((c, k) => {
        let score = base[k]!;
        for (const table of tables) if (table) score += table.get(c.pos) ?? 0;
        // agreementFeature() of learned-model.ts, from the class split once per token.
        const ownClass = own[k]!;
        return score + (weights.get(`agrsame=${ownClass === '' ? '-' : ownClass === headClass}|${head[k]}`) ?? 0);
      });
      const probabilities = softmax(scores, this.model.scale);
      const readings: TokenAnalysis[] = candidates.map((c, k) => ({
        lemma: c.lemma,
        pos: c.pos,
        word_class: wordClassOf(c.pos),
        morphemes: c.morphemes,
        probability: probabilities[k]!,
        guess: c.guess,
        source: c.source,
        gloss: null,
      }));
      readings.sort((a, b) => b.probability - a.probability);
      previousPos2 = previousPos;
      previousPos = readings[0]!.pos;
      headClass = nounClassOfPos(previousPos, isNounPos) ?? headClass;
      out.push(cutReadings(readings, options));
    }
    return out;
  }
}

/**
 * Coarse word class of a part-of-speech tag of the annotated text (the tag without its class
 * number, named): the tag set is the dataset's (Gaustad & Puttkammer 2022), shared by the languages
 * it annotates; a tag outside the table keeps its own lower-cased name.
 */
const WORD_CLASSES: Record<string, string> = {
  V: 'verb',
  VAUX: 'auxiliary',
  N: 'noun',
  NPP: 'proper_noun',
  NLOC: 'locative',
  POSS: 'possessive',
  POSSKA: 'possessive',
  REL: 'relative',
  COP: 'copulative',
  CDEM: 'demonstrative',
  CDEMLOC: 'demonstrative',
  ADJ: 'adjective',
  ADJLOC: 'adjective',
  PROQUANT: 'quantifier',
  PROEMP: 'pronoun',
  PROEMPLOC: 'pronoun',
  ADV: 'adverb',
  ADVLOC: 'adverb',
  CONJ: 'conjunction',
  IDEO: 'ideophone',
  NUM: 'numeral',
  INTER: 'interjection',
  FOR: 'foreign',
  ABBR: 'abbreviation',
  PUNC: 'punctuation',
};

/** `N09` -> noun, `POSS15` -> possessive, `REL` -> relative. */
export function wordClassOf(pos: string): string {
  const head = pos.replace(/\d+a?$/, '');
  return WORD_CLASSES[head] ?? WORD_CLASSES[pos] ?? head.toLowerCase();
}

/** True for the POS tags of nouns (their class is what later words agree with). */
export function isNounPos(pos: string): boolean {
  return wordClassOf(pos) === 'noun';
}

/** The coarse POS group figures are reported by (the tag without its class number). */
export function posGroupOf(pos: string): string {
  return pos.replace(/\d+a?$/, '') || pos;
}

const loaded = new Map<string, LearnedTextAnalyzer | null>();

/**
 * The learnt analyser of the cartridge in `cartridgeDir` (its `text/` folder), or null when the
 * cartridge has no text model. The model is read on the first call for a folder and kept.
 */
export function loadLearnedAnalyzer(cartridgeDir: string): TextAnalyzer | null {
  return loadLearnedAnalyzerFrom(path.join(cartridgeDir, 'text'));
}

/** The same from a model folder itself (a model learnt with a held-out part, for evaluation). */
export function loadLearnedAnalyzerFrom(modelDir: string): LearnedTextAnalyzer | null {
  const key = path.resolve(modelDir);
  if (loaded.has(key)) return loaded.get(key)!;
  const model = existsSync(path.join(modelDir, 'meta.yaml')) ? loadModel(modelDir) : null;
  const analyzer = model ? new LearnedTextAnalyzer(model) : null;
  loaded.set(key, analyzer);
  return analyzer;
}
