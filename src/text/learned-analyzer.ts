/**
 * The learnt analyser of running text: candidate readings from the language's text model
 * (learned-model.ts), ranked in context by an averaged perceptron (word, its template and stem
 * features, the neighbouring words and the previous token's part of speech), turned into
 * probabilities by a softmax and cut to the readings holding 95% of the probability (at most 5).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  agreementFeature,
  candidatesOf,
  classOfPos,
  contextKeys,
  ContextWeights,
  headClassAfter,
  innerAgreementFeature,
  innerClassOf,
  loadModel,
  type FeatureWeights,
  loadModelInBackground,
  priorPos,
  taggerOf,
  type Candidate,
  type LearnedModel,
} from './learned-model.js';
import { loadModelFile, loadModelFileInBackground } from './model-file.js';
import { marginBand, type PosTagger } from './pos-tagger.js';
import { readLexicon } from '../cartridge/lexicon.js';
import type { RankOptions, TextAnalyzer, TokenAnalysis } from './types.js';
import type { FallbackReadings } from './engine-readings.js';
import { engineTagsOf, withTextTags, type EngineTags } from './engine-tags.js';

/** The share of the probability the default cut keeps, and the most readings it returns. */
export const DEFAULT_MASS = 0.95;
export const DEFAULT_MAX = 5;

/**
 * Readings offered from outside the model (`offerReadings`, the cartridge engine's) for a token whose
 * learnt candidates are all guesses: before the context features, the best of them is this many times
 * as probable as the best guess (the rest keep their odds against it). A lexicon root the engine
 * builds a whole form on outweighs a stem the model has never seen, but the context can still
 * overrule it. 16 rather than 4 or 64: on a dev split of models learnt with --holdout dev (seeds 1
 * and 2) 4 mended fewer lemmas and POS, 64 no more than 16 on seed 1 (docs/text-analysis.md).
 */
export const OFFERED_ODDS = 16;

const CACHE_LIMIT = 100_000;
/**
 * The cache is emptied when it holds this many readings: a token of varied text keeps about ten,
 * some 640 bytes each (measured on text drawn from a model's forms.tsv), so 100,000 tokens would be about
 * 640 MiB; this bound keeps it near 40 MiB.
 */
const CACHE_READING_LIMIT = 60_000;
/** Longer tokens are not cached (a cache of 100,000 pathological 10,000-letter tokens would be a gigabyte). */
const CACHE_TOKEN_LIMIT = 64;

/** What a token's readings keep once scored: their features and keys are not needed again. */
type Reading = Pick<Candidate, 'lemma' | 'pos' | 'morphemes' | 'guess' | 'source' | 'related' | 'cartridge'>;

interface Scored {
  candidates: Reading[];
  /** Score of each candidate from the features that ignore the neighbours. */
  base: number[];
  /** Each candidate's POS as an id of the context weights (`ContextWeights.posId`). */
  posIds: number[];
  /** Each candidate's class number ('' when its POS has none; for the agreement features). */
  own: string[];
  /**
   * Each candidate's weights of the two agreement features (agreementFeature, innerAgreementFeature
   * of learned-model.ts) for every way its class can stand to the context's, looked up once per
   * token rather than built as strings per candidate and word: index `same` (0 when the candidate's
   * class is the last noun's, 1 otherwise) is agrsame's weight, `2 + 2 * inner + same` agrin's, with
   * `inner` 0 when there is no inner class, 1 when the class is it, 2 otherwise.
   */
  agreement: Float64Array[];
  /** The token's candidates come from templates (it is not in the word-form table). */
  unseen: boolean;
  /** Each candidate's entry in the cartridge's lexicon (undefined when it lists none). */
  listed: Array<CartridgeEntry | undefined>;
  /** The readings offered from outside the model (`offerReadings`), each at its candidate's index; absent when none were. */
  offered?: Array<TokenAnalysis | undefined>;
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
  #cachedReadings = 0;
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

  /** Whether a seen form's context features name words (false when meta.yaml says `seen_context: pos`). */
  private readonly seenWords: boolean;
  /** The id of the source of the model's learnt lexicon (its meta.yaml `source_id`). */
  private readonly learntSource: string | null;
  /** The id of the source of the related language's lexicon (meta.yaml `related_lexicon.source_id`). */
  private readonly relatedSource: string | null;
  /** The id of the source of the stems drawn from the cartridge's lexicon (meta.yaml `cartridge_lexicon.source_id`). */
  private readonly cartridgeSource: string | null;

  /** `cartridgeLexicon`: the cartridge's own words (readCartridgeLexicon), merged with the learnt lexicon. */
  constructor(
    readonly model: LearnedModel,
    private readonly cartridgeLexicon: ReadonlyMap<string, CartridgeEntry> = new Map(),
  ) {
    this.language = model.language;
    this.seenWords = model.meta.seen_context !== 'pos';
    this.learntSource = typeof model.meta.source_id === 'string' ? model.meta.source_id : null;
    const related = model.meta.related_lexicon as { source_id?: unknown } | undefined;
    this.relatedSource = related && typeof related.source_id === 'string' ? related.source_id : this.learntSource;
    const cartridge = model.meta.cartridge_lexicon as { source_id?: unknown } | undefined;
    this.cartridgeSource = cartridge && typeof cartridge.source_id === 'string' ? cartridge.source_id : 'cartridge';
  }

  #fallback: FallbackReadings | undefined;
  #offeredOdds = OFFERED_ODDS;
  /** The text's tags for offered readings (meta.yaml `engine_tags`), read on first use; null when the model has none. */
  #engineTags?: EngineTags | null;

  /**
   * Offers `fallback`'s readings (the cartridge engine's, engine-readings.ts) for every token whose learnt
   * candidates are all guesses (or that has none): they join its candidates, each scored as the best
   * guess plus log(`odds`) (and its own odds against the best offered one), plus the same context
   * features as every candidate of its part of speech. Replaces an earlier fallback; forgets cached tokens.
   */
  offerReadings(fallback: FallbackReadings | undefined, odds = OFFERED_ODDS): void {
    this.#fallback = fallback;
    this.#offeredOdds = odds;
    this.cache.clear();
    this.#cachedReadings = 0;
  }

  /** Whether the learnt candidates of a token are all guesses, so that a fallback is asked. */
  #onlyGuesses(candidates: readonly Pick<Candidate, 'guess'>[], listed: ReadonlyArray<CartridgeEntry | undefined>): boolean {
    return candidates.every((c, k) => c.guess && !listed[k]);
  }

  /** Computes the fallback's readings of the tokens that will ask for them, in slices that yield (the service calls it before analyzeTokens). */
  async prepareTokens(tokens: readonly string[]): Promise<void> {
    const fallback = this.#fallback;
    this.#prepared.clear();
    if (!fallback?.prepare) return;
    const asking = new Set<string>();
    for (const token of tokens) {
      if (token === '' || this.cache.has(token) || this.#prepared.has(token)) continue;
      // Kept for scored(), which would otherwise find the token's candidates a second time.
      const learnt = this.#learnt(token);
      this.#prepared.set(token, learnt);
      if (this.#onlyGuesses(learnt.candidates, learnt.listed)) asking.add(token.toLowerCase());
    }
    if (asking.size > 0) await fallback.prepare([...asking]);
  }

  /** The learnt scoring of tokens prepareTokens looked at, not yet cached (emptied on its next call). */
  readonly #prepared = new Map<string, Scored>();

  /** A token's learnt candidates, scored without context (no fallback asked). */
  #learnt(token: string): Scored {
    const candidates = candidatesOf(this.model, token);
    for (const c of candidates) {
      for (const m of c.morphemes) Object.freeze(m);
      Object.freeze(c.morphemes);
    }
    return {
      // Only what analyzeTokens reads: the feature strings are many times the rest, and the cache holds 100,000 tokens.
      candidates: candidates.map(({ lemma, pos, morphemes, guess, source, related, cartridge }) => ({ lemma, pos, morphemes, guess, source, related, cartridge })),
      base: candidates.map((c) => scoreOf(this.model.weights, c.features)),
      posIds: candidates.map((c) => this.context.posId(c.pos)),
      own: candidates.map((c) => classOfPos(c.pos)),
      unseen: candidates.length > 0 && candidates[0]!.source !== 'lexicon',
      listed: candidates.map((c) => listedEntry(this.cartridgeLexicon, c)),
      agreement: candidates.map((c) => agreementWeights(this.model.weights, c.pos)),
    };
  }

  private scored(token: string): Scored {
    let hit = this.cache.get(token);
    if (!hit) {
      hit = this.#prepared.get(token) ?? this.#learnt(token);
      this.#prepared.delete(token);
      if (this.#fallback && this.#onlyGuesses(hit.candidates, hit.listed)) this.#addOffered(hit, this.#fallback.readings(token.toLowerCase()));
      if (token.length <= CACHE_TOKEN_LIMIT) {
        if (this.cache.size >= CACHE_LIMIT || this.#cachedReadings + hit.candidates.length > CACHE_READING_LIMIT) {
          this.cache.clear();
          this.#cachedReadings = 0;
        }
        this.cache.set(token, hit);
        this.#cachedReadings += hit.candidates.length;
      }
    }
    return hit;
  }

  /** `offered` (most probable first) as more candidates of `hit`, scored as `offerReadings` says. */
  #addOffered(hit: Scored, offered: readonly TokenAnalysis[]): void {
    if (offered.length === 0) return;
    const top = hit.base.length > 0 ? Math.max(...hit.base) : 0;
    const best = offered[0]!.probability;
    const scale = this.model.scale > 0 ? this.model.scale : 1;
    hit.offered = hit.candidates.map(() => undefined);
    const tags = (this.#engineTags ??= engineTagsOf(this.model.meta));
    for (const engine of offered) {
      // The engine's tags as the model's text writes them (a relative verb REL, subject:c2 SC2).
      const r = tags ? withTextTags(engine, tags) : engine;
      hit.candidates.push({ lemma: r.lemma, pos: r.pos, morphemes: r.morphemes, guess: false, source: r.source === 'lexicon' ? 'lexicon' : 'rule' });
      hit.base.push(top + (Math.log(this.#offeredOdds) + Math.log(r.probability / best)) / scale);
      hit.posIds.push(this.context.posId(r.pos));
      hit.own.push(classOfPos(r.pos));
      hit.listed.push(listedEntry(this.cartridgeLexicon, r));
      hit.agreement.push(agreementWeights(this.model.weights, r.pos));
      hit.offered.push(r);
    }
    hit.unseen = true;
  }

  /** The decoder's beam (meta.yaml `decode.beam`; 1, the default, ranks each token greedily left to right), read once. */
  private get beam(): number {
    this.#beam ??= beamOf(this.model.meta.decode);
    return this.#beam;
  }
  #beam?: number;

  /** How a path's score adds its tokens' scores: `log` (log-softmax of each token's scores, the default) or `raw`. */
  private get pathScore(): 'log' | 'raw' {
    return (this.model.meta.decode as { score?: unknown } | undefined)?.score === 'raw' ? 'raw' : 'log';
  }

  analyzeTokens(tokens: readonly string[], options?: RankOptions): TokenAnalysis[][] {
    const beam = this.beam;
    if (beam <= 1) return this.analyzeGreedy(tokens, options);
    const steps = tokens.map((token) => (token === '' ? undefined : this.scored(token)));
    const choices = this.decodeSequence(tokens, steps, beam);
    return choices.map((choice, i) => {
      const here = steps[i];
      if (here === undefined || here.candidates.length === 0 || choice.scores === undefined) return [];
      const probabilities = softmax(choice.scores, this.model.scale);
      // The decoder's reading is returned first: when the sentence's best path takes another reading than the
      // token's own scores put first, the two trade probabilities (the rest keep theirs).
      let top = 0;
      for (let k = 1; k < probabilities.length; k++) if (probabilities[k]! > probabilities[top]!) top = k;
      if (top !== choice.pick) [probabilities[top], probabilities[choice.pick]] = [probabilities[choice.pick]!, probabilities[top]!];
      const readings = this.readingsOf(here, probabilities);
      const first = readings[choice.pick]!;
      readings.sort((a, b) => (a === first ? -1 : b === first ? 1 : b.probability - a.probability));
      return cutReadings(readings, options);
    });
  }

  /** Each token ranked in the context of the readings put first before it, one token at a time (no `decode` in meta.yaml). */
  private analyzeGreedy(tokens: readonly string[], options?: RankOptions): TokenAnalysis[][] {
    const out: TokenAnalysis[][] = [];
    let state = START;
    // The POS tagger's word on each token (a feature of each reading: `tg=`, `tgc=`), when the model has one.
    const tagged = taggerOf(this.model)?.tag(tokens);
    let next = tokens.length > 0 && tokens[0] !== '' ? this.scored(tokens[0]!) : undefined;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const here = next;
      next = i + 1 < tokens.length ? (tokens[i + 1] === '' ? { candidates: [], base: [], posIds: [], own: [], unseen: true, listed: [], agreement: [] } : this.scored(tokens[i + 1]!)) : undefined;
      if (here === undefined || here.candidates.length === 0) {
        out.push([]);
        if (token !== '') state = afterUnknown(state);
        continue;
      }
      const scores = this.scoresAt(tokens, i, here, next?.candidates, state, tagged);
      const readings = this.readingsOf(here, softmax(scores, this.model.scale));
      readings.sort((a, b) => b.probability - a.probability);
      state = after(state, readings[0]!);
      out.push(cutReadings(readings, options));
    }
    return out;
  }

  /**
   * The sentence's best sequence of readings by beam search: each path carries the context its readings
   * make (the last two POS, the last noun's class, the inner class), paths that make the same context
   * are merged (the better kept), and a path's score sums its tokens' scores (log-softmax by default,
   * so a token of many candidates weighs no more than one of few).
   */
  private decodeSequence(tokens: readonly string[], steps: ReadonlyArray<Scored | undefined>, width: number): Choice[] {
    const tagged = taggerOf(this.model)?.tag(tokens);
    const logScores = this.pathScore === 'log';
    interface Path {
      score: number;
      state: DecodeState;
      back: Path | null;
      pick: number;
      scores: number[] | undefined;
    }
    let paths: Path[] = [{ score: 0, state: START, back: null, pick: -1, scores: undefined }];
    for (let i = 0; i < tokens.length; i++) {
      const here = steps[i];
      if (here === undefined || here.candidates.length === 0) {
        paths = paths.map((p) => ({
          score: p.score,
          state: tokens[i] === '' ? p.state : afterUnknown(p.state),
          back: p,
          pick: -1,
          scores: undefined,
        }));
        continue;
      }
      const merged = new Map<string, Path>();
      for (const p of paths) {
        const scores = this.scoresAt(tokens, i, steps[i]!, i + 1 < tokens.length ? (steps[i + 1]?.candidates ?? []) : undefined, p.state, tagged);
        const local = logScores ? logSoftmax(scores, this.model.scale) : scores;
        for (let k = 0; k < scores.length; k++) {
          const score = p.score + local[k]!;
          const state = after(p.state, here.candidates[k]!);
          const key = `${state.previousPos}\t${state.previousPos2}\t${state.headClass}\t${state.innerClass}`;
          const known = merged.get(key);
          if (known === undefined || score > known.score) merged.set(key, { score, state, back: p, pick: k, scores });
        }
      }
      paths = [...merged.values()].sort((a, b) => b.score - a.score).slice(0, width);
    }
    const out: Choice[] = new Array<Choice>(tokens.length);
    let p: Path | null = paths[0]!;
    for (let i = tokens.length - 1; i >= 0; i--) {
      out[i] = { pick: p!.pick, scores: p!.scores };
      p = p!.back;
    }
    return out;
  }

  /**
   * The POS tagger's word on token `i` (models learnt with `--tagger`): taggerFeatures() of pos-tagger.ts, where
   * `tg=<tag>|<POS>` is a context feature and `tgc=` one of two weights per token; nothing without a tagger.
   */
  private taggerVote(tagged: ReturnType<PosTagger['tag']> | undefined, i: number, unseen: boolean): { taggerRun: number; taggerTag: string; agreeWeight: number; disagreeWeight: number } {
    if (!tagged) return { taggerRun: -1, taggerTag: '', agreeWeight: 0, disagreeWeight: 0 };
    const word = tagged[i]!;
    const band = `tgc=${unseen ? 'u' : 's'}|${marginBand(word.margin)}|`;
    return { taggerRun: this.context.run(`tg=${word.tag}`), taggerTag: word.tag, agreeWeight: this.model.weights.get(`${band}1`) ?? 0, disagreeWeight: this.model.weights.get(`${band}0`) ?? 0 };
  }

  /**
   * The scores of token `i`'s candidates (`here`; `next`: the next token's candidates, none at the end) in the context
   * `state`: the same features as contextFeatures() in learned-model.ts, looked up by context first.
   */
  private scoresAt(tokens: readonly string[], i: number, here: Scored, next: Scored['candidates'] | undefined, state: DecodeState, tagged: ReturnType<PosTagger['tag']> | undefined): number[] {
    const context = this.context;
    const { base, posIds, own, agreement } = here;
    const keys = contextKeys({
      token: tokens[i]!,
      unseen: here.unseen,
      previousPos: state.previousPos,
      previousPos2: state.previousPos2,
      previous: i === 0 ? undefined : tokens[i - 1],
      next: tokens[i + 1],
      nextPos: priorPos(next),
      headClass: state.headClass,
      seenWords: this.seenWords,
    });
    const runs = keys.map((k) => context.run(k));
    const { taggerRun, taggerTag, agreeWeight, disagreeWeight } = this.taggerVote(tagged, i, here.unseen);
    const { headClass, innerClass } = state;
    return here.candidates.map((c, k) => {
      let score = base[k]!;
      if (tagged) score += context.weight(taggerRun, posIds[k]!) + (c.pos === taggerTag ? agreeWeight : disagreeWeight);
      for (const run of runs) score += context.weight(run, posIds[k]!);
      // agreementFeature() and innerAgreementFeature() of learned-model.ts, their weights looked up once per token.
      const ownClass = own[k]!;
      const same = ownClass === headClass ? 0 : 1;
      const weightsOf = agreement[k]!;
      return score + weightsOf[same]! + weightsOf[2 + 2 * (innerClass === '' ? 0 : ownClass === innerClass ? 1 : 2) + same]!;
    });
  }

  /** A token's readings with their probabilities, in its candidates' order. */
  private readingsOf(here: Scored, probabilities: readonly number[]): TokenAnalysis[] {
    const { candidates, listed, offered } = here;
    return candidates.map((c, k) => {
      const entry = listed[k];
      const given = offered?.[k];
      // The cartridge row's source and gloss, as for a learnt reading on a listed stem.
      if (given) return { ...given, probability: probabilities[k]!, gloss: entry?.gloss || given.gloss, stem_source: entry?.source ?? given.stem_source };
      // A stem the cartridge lists is no guess, whether or not the annotated text had it.
      return {
        lemma: c.lemma,
        pos: c.pos,
        word_class: wordClassOf(c.pos),
        morphemes: c.morphemes,
        probability: probabilities[k]!,
        guess: c.guess && !entry,
        source: c.source === 'guess' && entry ? 'rule' : c.source,
        gloss: entry?.gloss || null,
        stem_source: entry ? entry.source : c.guess ? null : c.related ? this.relatedSource : c.cartridge ? this.cartridgeSource : this.learntSource,
      };
    });
  }
}

/** What the readings chosen so far tell the next token's context features (the analyser's and the learner's decoding). */
export interface DecodeState {
  previousPos: string;
  previousPos2: string;
  headClass: string;
  innerClass: string;
}

/** A token's decoded reading (its index among the candidates, -1 for none) and its candidates' scores in the decoded context. */
interface Choice {
  pick: number;
  scores?: number[];
}

/** meta.yaml `decode.beam` as a whole number of paths, 1 (no decoding) when absent or not above 1. */
function beamOf(decode: unknown): number {
  const beam = Number((decode as { beam?: unknown } | undefined)?.beam ?? 1);
  return Number.isFinite(beam) && beam > 1 ? Math.floor(beam) : 1;
}

/** The context at a sentence's start. */
export const START: DecodeState = { previousPos: '<s>', previousPos2: '<s>', headClass: '', innerClass: '' };

/** The context after a token that has no candidate reading (an unknown word's POS is `<unk>`). */
function afterUnknown(state: DecodeState): DecodeState {
  return { previousPos: '<unk>', previousPos2: state.previousPos, headClass: state.headClass, innerClass: '' };
}

/** The context after a reading (a candidate, or a token as the annotation reads it). */
export function after(state: DecodeState, reading: Pick<Candidate, 'pos' | 'morphemes'>): DecodeState {
  return {
    previousPos: reading.pos,
    previousPos2: state.previousPos,
    headClass: headClassAfter(reading.pos, reading.morphemes, state.headClass, isNounPos),
    innerClass: innerClassOf(reading.pos, reading.morphemes, isNounPos),
  };
}

/** Log-probabilities of the scores (log-softmax at `scale`). */
export function logSoftmax(scores: readonly number[], scale: number): number[] {
  let max = -Infinity;
  for (const s of scores) if (s > max) max = s;
  let total = 0;
  for (const s of scores) total += Math.exp((s - max) * scale);
  const log = Math.log(total);
  return scores.map((s) => (s - max) * scale - log);
}

/**
 * The weights of a candidate's agreement features (Scored.agreement) for each way its class can stand
 * to the last noun's and to the inner noun's: the features' own strings (learned-model.ts), so the
 * ranker and the learner cannot drift apart. A POS without a class number has one weight for all.
 */
function agreementWeights(weights: FeatureWeights, pos: string): Float64Array {
  const out = new Float64Array(8);
  const own = classOfPos(pos);
  // A head class or inner class that is the candidate's own, and one that is not ('' is never a class of a POS with one).
  const classes = own === '' ? ['', ''] : [own, ''];
  for (let same = 0; same < 2; same++) {
    out[same] = weights.get(agreementFeature(pos, classes[same]!)) ?? 0;
    const inners = own === '' ? ['', '', ''] : ['', own, own === '1' ? '2' : '1'];
    for (let inner = 0; inner < 3; inner++) out[2 + 2 * inner + same] = weights.get(innerAgreementFeature(pos, classes[same]!, inners[inner]!)) ?? 0;
  }
  return out;
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
