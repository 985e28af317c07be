/**
 * A part-of-speech tagger over word forms alone: an averaged perceptron, greedy left to right, with
 * features of the word (its letters, first and last letters, shape), its neighbours (their words and
 * first and last letters) and the tags it gave the two tokens before. It knows nothing of morphology;
 * the ranker (learned-analyzer.ts) takes its tag as one more feature of each reading (stacking), having
 * learnt from the tagger's cross-fold tags on the training text how far to trust it. Its weights are
 * a model file of their own, `tagger.tsv`, written by scripts/learn-text-model.ts.
 */

/** What the tagger says of one token: its tag and how far that tag's score is above the next best. */
export interface TaggedToken {
  tag: string;
  margin: number;
}

/** One feature's weights: tag ids and their weights. */
interface Row {
  tags: Uint16Array;
  weights: Float32Array;
}

const START = '<s>';
const END = '</s>';
/** Word-local score vectors kept per form (each is one float per tag). */
const CACHE_LIMIT = 10_000;

/** The features of a token that do not depend on its neighbours. */
export function wordFeatures(token: string): string[] {
  const lower = token.toLowerCase();
  const out = ['b', `w=${lower}`];
  for (let n = 1; n <= 4 && n <= lower.length; n++) out.push(`s${n}=${lower.slice(-n)}`, `p${n}=${lower.slice(0, n)}`);
  const first = token.charAt(0);
  if (first !== first.toLowerCase()) out.push(token === token.toUpperCase() && token.length > 1 ? 'caps' : 'cap');
  if (/\d/.test(token)) out.push('digit');
  if (token.includes('-')) out.push('hyphen');
  if (!/\p{L}/u.test(token)) out.push(`nl=${lower}`);
  out.push(`len=${Math.min(lower.length, 12)}`);
  return out;
}

/** The tags the tagger gave before a token: the last two, and the last noun's (`N09`), which later words agree with. */
interface TagState {
  previousTag: string;
  previousTag2: string;
  lastNoun: string;
}

const NOUN_TAG = /^N\d/;

/** The state after a token tagged `tag`. */
function advance(state: TagState, tag: string): void {
  state.previousTag2 = state.previousTag;
  state.previousTag = tag;
  if (NOUN_TAG.test(tag)) state.lastNoun = tag;
}

/** The features of a token from its neighbours and the tags before it. */
export function neighbourFeatures(tokens: readonly string[], i: number, state: TagState): string[] {
  const { previousTag, previousTag2, lastNoun } = state;
  const previous = i > 0 ? tokens[i - 1]!.toLowerCase() : START;
  const previous2 = i > 1 ? tokens[i - 2]!.toLowerCase() : START;
  const next = i + 1 < tokens.length ? tokens[i + 1]!.toLowerCase() : END;
  const lower = tokens[i]!.toLowerCase();
  return [
    `t1=${previousTag}`,
    `t2=${previousTag2}|${previousTag}`,
    `t1w=${previousTag}|${lower}`,
    `pw=${previous}`,
    `pw2=${previous2}`,
    `nw=${next}`,
    `pp3=${previous.slice(0, 3)}`,
    `ps2=${previous.slice(-2)}`,
    `np3=${next.slice(0, 3)}`,
    `ns2=${next.slice(-2)}`,
    `t1np2=${previousTag}|${next.slice(0, 2)}`,
    `pww=${previous}|${lower}`,
    `ln2=${lastNoun}|${lower.slice(0, 2)}`,
    `ln3=${lastNoun}|${lower.slice(0, 3)}`,
    `lnt=${lastNoun}|${previousTag}`,
  ];
}

/** A trained tagger: its tag set and its weights, feature by feature. */
export class PosTagger {
  readonly #cache = new Map<string, Float32Array>();

  constructor(
    readonly tags: readonly string[],
    private readonly rows: ReadonlyMap<string, Row>,
  ) {}

  /** How many (feature, tag) weights the tagger has. */
  get size(): number {
    let n = 0;
    for (const row of this.rows.values()) n += row.tags.length;
    return n;
  }

  private add(scores: Float32Array, feature: string): void {
    const row = this.rows.get(feature);
    if (!row) return;
    for (let k = 0; k < row.tags.length; k++) scores[row.tags[k]!]! += row.weights[k]!;
  }

  private wordScores(token: string): Float32Array {
    let scores = this.#cache.get(token);
    if (!scores) {
      scores = new Float32Array(this.tags.length);
      for (const f of wordFeatures(token)) this.add(scores, f);
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(token, scores);
    }
    return scores;
  }

  /** Tags for a sentence's tokens, left to right (an empty token has no letters and breaks nothing). */
  tag(tokens: readonly string[]): TaggedToken[] {
    const out: TaggedToken[] = [];
    const scores = new Float32Array(this.tags.length);
    const state: TagState = { previousTag: START, previousTag2: START, lastNoun: START };
    for (let i = 0; i < tokens.length; i++) {
      scores.set(this.wordScores(tokens[i]!));
      for (const f of neighbourFeatures(tokens, i, state)) this.add(scores, f);
      let best = 0;
      let second = -Infinity;
      for (let t = 1; t < scores.length; t++) {
        if (scores[t]! > scores[best]!) {
          second = scores[best]!;
          best = t;
        } else if (scores[t]! > second) second = scores[t]!;
      }
      const tag = this.tags[best] ?? '<unk>';
      out.push({ tag, margin: scores[best]! - second });
      advance(state, tag);
    }
    return out;
  }

  /** tagger.tsv: a line `#tags` with the tags, then per feature its name and `tagId:weight` pairs. */
  serialize(): string {
    const lines = [['#tags', ...this.tags].join('\t')];
    const names = [...this.rows.keys()].sort();
    for (const name of names) {
      const row = this.rows.get(name)!;
      const pairs: string[] = [];
      for (let k = 0; k < row.tags.length; k++) pairs.push(`${row.tags[k]}:${Number(row.weights[k]!.toFixed(3))}`);
      lines.push(`${name}\t${pairs.join(' ')}`);
    }
    return `${lines.join('\n')}\n`;
  }

  /** The tagger of a tagger.tsv file's text. */
  static parse(text: string): PosTagger {
    const lines = text.split('\n');
    const tags = lines[0]!.split('\t').slice(1);
    const rows = new Map<string, Row>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const tab = line.lastIndexOf('\t');
      if (tab < 0) continue;
      const pairs = line.slice(tab + 1).split(' ');
      const row: Row = { tags: new Uint16Array(pairs.length), weights: new Float32Array(pairs.length) };
      pairs.forEach((p, k) => {
        const colon = p.indexOf(':');
        row.tags[k] = Number(p.slice(0, colon));
        row.weights[k] = Number(p.slice(colon + 1));
      });
      rows.set(line.slice(0, tab), row);
    }
    return new PosTagger(tags, rows);
  }
}

/** A sentence of the training text: its tokens and their gold tags. */
export interface TaggedSentence {
  tokens: readonly string[];
  tags: readonly string[];
}

/**
 * Trains a tagger on `sentences` (an averaged perceptron, `epochs` passes in a shuffled order from
 * `seed`, greedy decoding with its own previous tags as in use). Weights under `minWeight` are dropped.
 */
export function trainTagger(sentences: readonly TaggedSentence[], options: { epochs: number; seed: number; minWeight?: number }): PosTagger {
  const tagIds = new Map<string, number>();
  for (const s of sentences) for (const t of s.tags) if (!tagIds.has(t)) tagIds.set(t, tagIds.size);
  const tags = [...tagIds.keys()];
  const nTags = tags.length;
  const featureIds = new Map<string, number>();
  // Per feature, the slots of its (feature, tag) weights; per slot, its tag, weight, running total and stamp.
  const featureSlots: number[][] = [];
  const slotOf = new Map<number, number>();
  let slotTags = new Uint16Array(1 << 16);
  let slotWeights = new Float64Array(1 << 16);
  let slotTotals = new Float64Array(1 << 16);
  let slotStamps = new Float64Array(1 << 16);
  let slots = 0;
  let step = 1;
  const idOf = (f: string, create: boolean): number => {
    let id = featureIds.get(f);
    if (id === undefined && create) {
      id = featureSlots.length;
      featureIds.set(f, id);
      featureSlots.push([]);
    }
    return id ?? -1;
  };
  const grow = (): void => {
    const size = slotTags.length * 2;
    const tags = new Uint16Array(size);
    tags.set(slotTags);
    slotTags = tags;
    slotWeights = grown(slotWeights, size);
    slotTotals = grown(slotTotals, size);
    slotStamps = grown(slotStamps, size);
  };
  const update = (feature: number, tag: number, delta: number): void => {
    const key = feature * nTags + tag;
    let slot = slotOf.get(key);
    if (slot === undefined) {
      if (slots === slotTags.length) grow();
      slot = slots++;
      slotOf.set(key, slot);
      slotTags[slot] = tag;
      slotStamps[slot] = step;
      featureSlots[feature]!.push(slot);
    }
    slotTotals[slot]! += (step - slotStamps[slot]!) * slotWeights[slot]!;
    slotStamps[slot] = step;
    slotWeights[slot]! += delta;
  };
  const scores = new Float64Array(nTags);
  const predict = (features: number[]): number => {
    scores.fill(0);
    for (const f of features) if (f >= 0) for (const slot of featureSlots[f]!) scores[slotTags[slot]!]! += slotWeights[slot]!;
    let best = 0;
    for (let t = 1; t < nTags; t++) if (scores[t]! > scores[best]!) best = t;
    return best;
  };
  let seed = options.seed;
  const random = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const wordIds = sentences.map((s) => s.tokens.map((t) => wordFeatures(t).map((f) => idOf(f, true))));
  const order = sentences.map((_, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const index of order) {
      const { tokens, tags: gold } = sentences[index]!;
      const state: TagState = { previousTag: START, previousTag2: START, lastNoun: START };
      for (let i = 0; i < tokens.length; i++) {
        const features = [...wordIds[index]![i]!, ...neighbourFeatures(tokens, i, state).map((f) => idOf(f, true))];
        const guess = predict(features);
        const truth = tagIds.get(gold[i]!)!;
        if (guess !== truth) {
          for (const f of features) {
            update(f, truth, 1);
            update(f, guess, -1);
          }
        }
        step++;
        advance(state, tags[guess]!);
      }
    }
  }
  const minWeight = options.minWeight ?? 0.05;
  const rows = new Map<string, Row>();
  for (const [name, id] of featureIds) {
    const kept: Array<[number, number]> = [];
    for (const slot of featureSlots[id]!) {
      const average = (slotTotals[slot]! + (step - slotStamps[slot]!) * slotWeights[slot]!) / step;
      if (Math.abs(average) >= minWeight) kept.push([slotTags[slot]!, average]);
    }
    if (kept.length === 0) continue;
    kept.sort((a, b) => a[0] - b[0]);
    rows.set(name, { tags: Uint16Array.from(kept.map((k) => k[0])), weights: Float32Array.from(kept.map((k) => k[1])) });
  }
  return new PosTagger(tags, rows);
}

/** A copy of `array` `size` long. */
function grown(array: Float64Array, size: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(size);
  out.set(array);
  return out;
}

/**
 * Each sentence's tags from a tagger trained without it (`folds` parts, each tagged by a tagger
 * trained on the others): what the ranker learns to trust the tagger by, as it will be on new text.
 */
export function crossFoldTags(sentences: readonly TaggedSentence[], options: { folds: number; epochs: number; seed: number }): TaggedToken[][] {
  const out: TaggedToken[][] = new Array(sentences.length);
  for (let fold = 0; fold < options.folds; fold++) {
    const training = sentences.filter((_, i) => i % options.folds !== fold);
    const tagger = trainTagger(training, options);
    sentences.forEach((s, i) => {
      if (i % options.folds === fold) out[i] = tagger.tag(s.tokens);
    });
  }
  return out;
}

/** The margin's band in the ranker's features (log2 steps, 0 to 6). */
export function marginBand(margin: number): number {
  return Math.min(6, Math.floor(Math.log2(1 + Math.max(0, margin))));
}

/**
 * The ranker's features of a reading of POS `pos` given the tagger's word on its token: the tagger's
 * tag crossed with the reading's, and whether they agree by how sure the tagger was (apart for forms
 * the model learnt and forms it did not).
 */
export function taggerFeatures(tagged: TaggedToken, pos: string, unseen: boolean): [string, string] {
  return [`tg=${tagged.tag}|${pos}`, `tgc=${unseen ? 'u' : 's'}|${marginBand(tagged.margin)}|${tagged.tag === pos ? 1 : 0}`];
}
