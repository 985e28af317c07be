/**
 * The learnt analyser of running text: candidate readings from the language's text model
 * (learned-model.ts), ranked in context by an averaged perceptron (word, its template and stem
 * features, the neighbouring words and the previous token's part of speech), turned into
 * probabilities by a softmax and cut to the readings holding 95% of the probability (at most 5).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { candidatesOf, ContextWeights, fixedContextKeys, historyContextKeys, headClassAfter, loadModel, type FeatureWeights, loadModelInBackground, priorPos, type Candidate, type LearnedModel } from './learned-model.js';
import { loadModelFile, loadModelFileInBackground } from './model-file.js';
import { readLexicon } from '../cartridge/lexicon.js';
import type { RankOptions, TextAnalyzer, TokenAnalysis } from './types.js';

/** The share of the probability the default cut keeps, and the most readings it returns. */
export const DEFAULT_MASS = 0.95;
export const DEFAULT_MAX = 5;

const CACHE_LIMIT = 100_000;
/** Longer tokens are not cached (a cache of 100,000 pathological 10,000-letter tokens would be a gigabyte). */
const CACHE_TOKEN_LIMIT = 64;

/** What a token's readings keep once scored: their features and keys are not needed again. */
type Reading = Pick<Candidate, 'lemma' | 'pos' | 'morphemes' | 'guess' | 'source'>;

interface Scored {
  candidates: Reading[];
  /** Score of each candidate from the features that ignore the neighbours. */
  base: number[];
  /** Each candidate's POS as an id of the context weights (`ContextWeights.posId`). */
  posIds: number[];
  /** Each candidate's POS split into its tag and class number (for the agreement feature). */
  own: string[];
  head: string[];
  /** The token's candidates come from templates (it is not in the word-form table). */
  unseen: boolean;
  /** Each candidate's entry in the cartridge's lexicon (undefined when it lists none). */
  listed: Array<CartridgeEntry | undefined>;
}

/** A word of the cartridge's own lexicon (lexicon.tsv): its gloss and the id of the source it cites. */
export interface CartridgeEntry {
  gloss: string;
  source: string;
}

/**
 * The cartridge's lexicon keyed the way readings are looked up in it: nouns by their citation form
 * and class (`noun\tumuntu\t1`), every other word by its lemma (`verb\tsebenza`, `other\t...`).
 */
export function readCartridgeLexicon(file: string): Map<string, CartridgeEntry> {
  const out = new Map<string, CartridgeEntry>();
  if (!existsSync(file)) return out;
  for (const row of readLexicon(file, undefined)) {
    const word = row.lemma.toLowerCase();
    const key = row.word_class === 'noun' ? `noun\t${word}\t${row.noun_class ?? ''}` : `${row.word_class === 'verb' ? 'verb' : 'other'}\t${word}`;
    if (!out.has(key)) out.set(key, { gloss: row.gloss, source: row.source });
  }
  return out;
}

const CLASS_PREFIX = /Pre0*(\d+a?)$/;

/**
 * The cartridge's entry for a reading: a noun stem with the class prefixes before it in the reading,
 * in the same class (`u-mu-ntu` -> `umuntu`, class 1; a plural or a locative whose citation differs
 * is not matched), else the lemma of a verb, else the lemma itself.
 */
export function listedEntry(lexicon: ReadonlyMap<string, CartridgeEntry>, candidate: Pick<Candidate, 'lemma' | 'morphemes'>): CartridgeEntry | undefined {
  if (lexicon.size === 0) return undefined;
  const lemma = candidate.lemma.toLowerCase();
  const ms = candidate.morphemes;
  // The stem: the longest morpheme whose canonical form starts the lemma.
  let stem = -1;
  for (let i = 0; i < ms.length; i++) {
    const c = ms[i]!.canonical.toLowerCase();
    if (c !== '' && lemma.startsWith(c) && (stem < 0 || c.length >= ms[stem]!.canonical.length)) stem = i;
  }
  if (stem < 0) return lexicon.get(`other\t${lemma}`);
  // The citation form as written (`i-m-pilo` -> impilo) and as canonical (`u-mu-ntu` -> umuntu).
  let written = ms[stem]!.surface.toLowerCase();
  let canonical = ms[stem]!.canonical.toLowerCase();
  let cls = '';
  for (let i = stem - 1; i >= 0; i--) {
    const match = CLASS_PREFIX.exec(ms[i]!.tag);
    if (!match) break;
    cls ||= match[1]!;
    written = ms[i]!.surface.toLowerCase() + written;
    canonical = ms[i]!.canonical.toLowerCase() + canonical;
  }
  if (cls !== '') {
    for (const key of [`noun\t${written}\t${cls}`, `noun\t${canonical}\t${cls}`]) {
      const entry = lexicon.get(key);
      if (entry) return entry;
    }
    return undefined;
  }
  return lexicon.get(`verb\t${lemma}`) ?? lexicon.get(`other\t${lemma}`);
}

/** Sum of the weights of `features`. */
export function scoreOf(weights: Pick<FeatureWeights, 'get'>, features: readonly string[]): number {
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
  #context: ContextWeights | undefined;

  /** The model's context weights (packed from its weights when the model was built in memory). */
  private get context(): ContextWeights {
    return (this.#context ??= this.model.context ?? ContextWeights.of(this.model.weights));
  }

  /** Word forms of the annotated text written with a full stop (`isib.`, `njl.njl.`): abbreviations. */
  get abbreviations(): ReadonlySet<string> {
    if (!this.#abbreviations) {
      this.#abbreviations = new Set();
      for (const form of this.model.forms.keys()) if (form.length > 1 && form.endsWith('.') && /\p{L}/u.test(form)) this.#abbreviations.add(form);
    }
    return this.#abbreviations;
  }

  #abbreviations: Set<string> | undefined;

  /** The id of the source of the model's learnt lexicon (its meta.yaml `source_id`). */
  private readonly learntSource: string | null;

  /** `cartridgeLexicon`: the cartridge's own words (readCartridgeLexicon), merged with the learnt lexicon. */
  constructor(
    readonly model: LearnedModel,
    private readonly cartridgeLexicon: ReadonlyMap<string, CartridgeEntry> = new Map(),
  ) {
    this.language = model.language;
    this.learntSource = typeof model.meta.source_id === 'string' ? model.meta.source_id : null;
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
        // Only what analyzeTokens reads: the feature strings are many times the rest, and the cache holds 100,000 tokens.
        candidates: candidates.map(({ lemma, pos, morphemes, guess, source }) => ({ lemma, pos, morphemes, guess, source })),
        base: candidates.map((c) => scoreOf(this.model.weights, c.features)),
        posIds: candidates.map((c) => this.context.posId(c.pos)),
        own: split.map((m) => (m ? m[2]! : '')),
        head: split.map((m, k) => (m ? m[1]! : candidates[k]!.pos)),
        unseen: candidates.length > 0 && candidates[0]!.source !== 'lexicon',
        listed: candidates.map((c) => listedEntry(this.cartridgeLexicon, c)),
      };
      if (token.length <= CACHE_TOKEN_LIMIT) {
        if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
        this.cache.set(token, hit);
      }
    }
    return hit;
  }

  /**
   * How many histories (the POS of the two tokens before, the class of the last noun) the search over a
   * sentence keeps at each token: 1 reads left to right, each token's best reading fixed before the next
   * (the model's meta.yaml `beam`, 1 when absent).
   */
  beam = 1;

  analyzeTokens(tokens: readonly string[], options?: RankOptions): TokenAnalysis[][] {
    const context = this.context;
    const weights = this.model.weights;
    const scale = this.model.scale;
    const none: Scored = { candidates: [], base: [], posIds: [], own: [], head: [], unseen: true, listed: [] };
    const here = tokens.map((t) => (t === '' ? none : this.scored(t)));
    // Each token's candidates scored on the features that do not depend on the readings chosen before it.
    const fixed: number[][] = here.map((h, i) => {
      if (h.candidates.length === 0) return [];
      const keys = fixedContextKeys({
        token: tokens[i]!,
        unseen: h.unseen,
        previous: i === 0 ? undefined : tokens[i - 1],
        next: tokens[i + 1],
        nextPos: i + 1 < tokens.length ? priorPos(here[i + 1]!.candidates) : '</s>',
      });
      const runs = keys.map((k) => context.run(k));
      return h.base.map((b, k) => {
        let score = b;
        for (const run of runs) score += context.weight(run, h.posIds[k]!);
        return score;
      });
    });
    /** The scores of token i's candidates after a history. */
    const scoresAfter = (i: number, state: History): number[] => {
      const h = here[i]!;
      const runs = historyContextKeys({
        token: tokens[i]!,
        unseen: h.unseen,
        previousPos: state.pos,
        previousPos2: state.pos2,
        nextPos: i + 1 < tokens.length ? priorPos(here[i + 1]!.candidates) : '</s>',
        headClass: state.headClass,
      }).map((k) => context.run(k));
      return fixed[i]!.map((f, k) => {
        let score = f;
        for (const run of runs) score += context.weight(run, h.posIds[k]!);
        const ownClass = h.own[k]!;
        return score + (weights.get(`agrsame=${ownClass === '' ? '-' : ownClass === state.headClass}|${h.head[k]}`) ?? 0);
      });
    };
    /** The history after token i read as its candidate k (or with no reading). */
    const after = (i: number, state: History, k: number): History => {
      const h = here[i]!;
      if (h.candidates.length === 0) return tokens[i] === '' ? state : { pos2: state.pos, pos: '<unk>', headClass: state.headClass, score: state.score, back: state, choice: -1 };
      const c = h.candidates[k]!;
      return { pos2: state.pos, pos: c.pos, headClass: headClassAfter(c.pos, c.morphemes, state.headClass, isNounPos), score: state.score, back: state, choice: k };
    };
    // The search: at each token, every kept history extended by each candidate, scored by the sum of the
    // log-probabilities of the readings chosen; the `beam` best distinct histories are kept.
    const width = Math.max(1, this.beam);
    const start: History = { pos: '<s>', pos2: '<s>', headClass: '', score: 0, back: undefined, choice: -1 };
    let states: History[] = [start];
    const path: History[][] = [];
    for (let i = 0; i < tokens.length; i++) {
      const h = here[i]!;
      if (h.candidates.length === 0) {
        states = states.map((s) => after(i, s, -1));
        path.push(states);
        continue;
      }
      const next: History[] = [];
      for (const state of states) {
        const scores = scoresAfter(i, state);
        let max = -Infinity;
        for (const s of scores) if (s > max) max = s;
        let total = 0;
        for (const s of scores) total += Math.exp((s - max) * scale);
        const log = Math.log(total);
        // Only the best candidates of each history can make the best histories.
        const order = scores.map((_, k) => k).sort((a, b) => scores[b]! - scores[a]! || a - b);
        for (const k of order.slice(0, width)) {
          const extended = after(i, state, k);
          extended.score = state.score + (scores[k]! - max) * scale - log;
          next.push(extended);
        }
      }
      next.sort((a, b) => b.score - a.score);
      const seen = new Set<string>();
      states = [];
      for (const s of next) {
        const key = `${s.pos}\t${s.pos2}\t${s.headClass}`;
        if (seen.has(key)) continue;
        seen.add(key);
        states.push(s);
        if (states.length >= width) break;
      }
      path.push(states);
    }
    // The best history's readings, back to the first token; each token's readings ranked after the history before it.
    const chosen: Array<History | undefined> = new Array(tokens.length);
    let at: History | undefined = states[0];
    for (let i = tokens.length - 1; i >= 0; i--) {
      chosen[i] = at;
      if (tokens[i] !== '' && at) at = at.back;
    }
    const out: TokenAnalysis[][] = [];
    for (let i = 0; i < tokens.length; i++) {
      const h = here[i]!;
      const state = chosen[i];
      if (h.candidates.length === 0 || !state?.back) {
        out.push([]);
        continue;
      }
      const probabilities = softmax(scoresAfter(i, state.back), scale);
      const readings: Array<TokenAnalysis & { k: number }> = h.candidates.map((c, k) => {
        // A stem the cartridge lists is no guess, whether or not the annotated text had it.
        const entry = h.listed[k];
        return {
          k,
          lemma: c.lemma,
          pos: c.pos,
          word_class: wordClassOf(c.pos),
          morphemes: c.morphemes,
          probability: probabilities[k]!,
          guess: c.guess && !entry,
          source: c.source === 'guess' && entry ? 'rule' : c.source,
          gloss: entry?.gloss || null,
          stem_source: entry ? entry.source : c.guess ? null : this.learntSource,
        };
      });
      readings.sort((a, b) => (a.k === state.choice ? -1 : b.k === state.choice ? 1 : 0) || b.probability - a.probability);
      out.push(
        cutReadings(
          readings.map(({ k: _k, ...r }) => r),
          options,
        ),
      );
    }
    return out;
  }
}

/** One history of the search over a sentence: the POS of the last two readings chosen, the last noun's class, the summed log-probability, the history before it and the candidate chosen. */
interface History {
  pos: string;
  pos2: string;
  headClass: string;
  score: number;
  back: History | undefined;
  choice: number;
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
 * cartridge has no text model. The model is read on the first call for a folder and kept; with
 * `cacheDir`, from its binary file there (model-file.ts), written there first when missing or stale.
 */
export function loadLearnedAnalyzer(cartridgeDir: string, cacheDir?: string): TextAnalyzer | null {
  return loadLearnedAnalyzerFrom(path.join(cartridgeDir, 'text'), path.join(cartridgeDir, 'lexicon.tsv'), cacheDir);
}

/** The same from a model folder itself (a model learnt with a held-out part, for evaluation). */
export function loadLearnedAnalyzerFrom(modelDir: string, cartridgeLexicon?: string, cacheDir?: string): LearnedTextAnalyzer | null {
  const key = `${path.resolve(modelDir)}\t${cartridgeLexicon ? path.resolve(cartridgeLexicon) : ''}`;
  if (loaded.has(key)) return loaded.get(key)!;
  const model = !existsSync(path.join(modelDir, 'meta.yaml')) ? null : cacheDir ? (loadModelFile(modelDir, cacheDir)?.model ?? null) : loadModel(modelDir);
  const analyzer = model ? new LearnedTextAnalyzer(model, cartridgeLexicon ? readCartridgeLexicon(cartridgeLexicon) : undefined) : null;
  loaded.set(key, analyzer);
  return analyzer;
}

const loading = new Map<string, Promise<LearnedTextAnalyzer | null>>();

/**
 * The same analyser as `loadLearnedAnalyzer`, its model read in slices that yield to the event loop
 * (`loadModelInBackground`): for warming a server. Calls for one folder share one load; a synchronous
 * `loadLearnedAnalyzer` that came first (or meanwhile) wins, so a folder only ever has one analyser.
 */
export function loadLearnedAnalyzerInBackground(cartridgeDir: string, sliceMs?: number, cacheDir?: string): Promise<TextAnalyzer | null> {
  const modelDir = path.join(cartridgeDir, 'text');
  const cartridgeLexicon = path.join(cartridgeDir, 'lexicon.tsv');
  const key = `${path.resolve(modelDir)}\t${path.resolve(cartridgeLexicon)}`;
  if (loaded.has(key)) return Promise.resolve(loaded.get(key)!);
  let pending = loading.get(key);
  if (!pending) {
    pending = (async () => {
      const model = !existsSync(path.join(modelDir, 'meta.yaml')) ? null : cacheDir ? ((await loadModelFileInBackground(modelDir, cacheDir, sliceMs))?.model ?? null) : await loadModelInBackground(modelDir, sliceMs);
      if (loaded.has(key)) return loaded.get(key)!;
      const analyzer = model ? new LearnedTextAnalyzer(model, readCartridgeLexicon(cartridgeLexicon)) : null;
      loaded.set(key, analyzer);
      return analyzer;
    })().finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}
