/**
 * The learnt text model of one language (files under `languages/<iso>/text/`, written by
 * scripts/learn-text-model.ts) and the candidate readings it yields for any token:
 *  - forms.tsv + readings.tsv: the word forms of the annotated text with their readings and counts;
 *  - prefixes.tsv, suffixes.tsv, pairs.tsv: word templates, split at the stem (the morphemes
 *    before it with their written and canonical forms and tags and the reading's POS; the
 *    morphemes after it, the stem rewrite they cause and how the lemma is made from the stem),
 *    and how often each prefix and suffix template met in one word; any prefix template combines
 *    with any suffix template of the same stem tag, so new combinations read new words;
 *  - lexicon.tsv: stems with their tag, noun class and frequency, which tell a likely guess from an
 *    unlikely one;
 *  - weights.tsv: the ranker's feature weights (learned-analyzer.ts).
 * Nothing here knows a language: every fact comes from the files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PosTagger } from './pos-tagger.js';
import { formatSegmentation, parseSegmentation } from './sadii.js';
import type { Morpheme } from './types.js';
import { runSteps, runStepsInSlices } from '../steps.js';

/**
 * The YAML library, loaded on first use: only reading a model from its TSV files (meta.yaml) and
 * writing them need it, not a process that reads the models' binary files (model-file.ts).
 */
let yaml: typeof import('yaml') | undefined;
const yamlLibrary = (): typeof import('yaml') => (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** A read-only string-keyed table: a Map, or a model's `PackedTable` once read from its binary file (model-file.ts). */
export interface Lookup<V> extends Iterable<[string, V]> {
  get(key: string): V | undefined;
  has(key: string): boolean;
  keys(): Iterable<string>;
  values(): Iterable<V>;
  readonly size: number;
}

/** A reading of a whole word, as stored. */
export interface StoredReading {
  lemma: string;
  pos: string;
  morphemes: Morpheme[];
}

/** The part of a word template before the stem: written and canonical prefixes, the reading's POS. */
export interface PrefixTemplate {
  count: number;
  /** Written letters before the stem (lower case). */
  prefix: string;
  pos: string;
  before: Morpheme[];
  stemTag: string;
  /** How the written stem's start differs from the canonical one (`^p>ph`); '' when it does not. */
  rewrite: string;
  /** The stem keeps the letter case of the token (abbreviations, names) rather than being lower-cased. */
  keepCase: boolean;
  /** Noun class of the prefixes before the stem ('' when none). */
  nounClass: string;
}

/** The part of a word template after the stem: written and canonical suffixes, how the lemma ends. */
export interface SuffixTemplate {
  count: number;
  suffix: string;
  after: Morpheme[];
  stemTag: string;
  /** The lemma is the canonical stem followed by these letters (`sebenz` + `a`). */
  lemmaAdd: string;
  /** How the written stem differs from the canonical one before these suffixes (`tsh>b`, last occurrence); '' when it does not. */
  rewrite: string;
}

/** A head (leading morphemes, with the reading's POS) or a tail (trailing morphemes, with the stem's tag) of prefix templates. */
export interface PrefixPart {
  morphemes: Morpheme[];
  /** The tag the part meets the other part on: a head's last tag, the tag before a tail. */
  junction: string;
  pos: string;
  stemTag: string;
  rewrite: string;
  keepCase: boolean;
  count: number;
}

/** Templates by id: an array, or a loaded model's templates, each decoded on first use (model-file.ts). */
export interface TemplateList<T> extends Iterable<T> {
  readonly length: number;
  at(id: number): T | undefined;
}

/** Written prefix (or suffix) -> the ids of the templates written so: a Map, or a loaded model's packed index. */
export interface TemplateIndex {
  get(written: string): Iterable<number> | undefined;
}

/**
 * What composing prefix templates needs of all of them (`compositionOf`): their ids sorted by written
 * prefix, forwards and backwards, with those keys; the tag bigrams; the stem tags after a hyphen.
 * Computed on first use, or read from a model's file, which holds them (model-file.ts).
 */
export interface PrefixOrder {
  forward: ArrayLike<number>;
  forwardKeys: readonly string[];
  backward: ArrayLike<number>;
  backwardKeys: readonly string[];
  bigrams: Lookup<number>;
  hyphenTags: Array<[string, boolean]>;
}

/** Strings by index: an array, or lines packed in one string (model-file.ts). */
export interface Lines {
  readonly length: number;
  at(index: number): string | undefined;
}

export interface LearnedModel {
  language: string;
  /** Readings by index; a loaded model decodes each on first use (see `readingAt`). */
  readings: Array<StoredReading | undefined>;
  /** Undecoded readings.tsv lines of a loaded model, by index (an array, or a model file's `TextLines`). */
  rawReadings?: Lines;
  /**
   * Lower-cased word form -> [reading index, count] pairs, most frequent first; a loaded model
   * keeps each as where its pairs start in `formLists` (read with `formEntries`).
   */
  forms: Lookup<Array<[number, number]> | number>;
  /** The pairs of a loaded model's forms: at a form's start, how many pairs, then reading and count of each. */
  formLists?: Uint32Array;
  prefixTemplates: TemplateList<PrefixTemplate>;
  suffixTemplates: TemplateList<SuffixTemplate>;
  /** How often a prefix template and a suffix template made one word: `prefixId suffixId` -> count. */
  pairs: Lookup<number>;
  /** Written prefix -> prefix template indices; written suffix -> suffix template indices. */
  prefixIndex: TemplateIndex;
  suffixIndex: TemplateIndex;
  /** The prefix templates' orders for composition, when read from a model's file (else `prefixOrderOf` computes them). */
  prefixOrder?: PrefixOrder;
  maxPrefix: number;
  maxSuffix: number;
  /** Lower-cased lemma -> how many tokens of the text have it; built on the first unseen word (`lemmaCounts`). */
  lemmas?: Lookup<number>;
  /** `stem\ttag\tclass` -> count, `stem\ttag` -> count and `stem` -> count. */
  lexicon: Lookup<number>;
  /**
   * A fallback stem lexicon learnt from a related language's annotated text (meta.yaml `related_lexicon`,
   * file `related-lexicon.tsv`, keyed as `lexicon`): consulted only for a stem `lexicon` lacks with its tag,
   * so an unseen word's reading can rest on a stem the model's own text never had.
   */
  related?: Lookup<number>;
  /**
   * A fallback stem lexicon drawn from the cartridge's own word list at learn time (meta.yaml
   * `cartridge_lexicon`, file `cartridge-lexicon.tsv`, keyed as `lexicon`): consulted, like `related`,
   * only for a stem `lexicon` lacks with its tag.
   */
  cartridge?: Lookup<number>;
  /** The ranker's weights of the features that ignore the neighbours (a loaded model's are packed). */
  weights: FeatureWeights;
  /**
   * The weights of the context features (`kind=context|POS`) packed by context (`ContextWeights`), so
   * the ranker looks each context up once per token; a loaded model keeps its context weights here
   * only (not in `weights`).
   */
  context?: ContextWeights;
  /** Multiplies the ranker's scores before the softmax (fitted on the training text). */
  scale: number;
  /**
   * The model's POS tagger file (`tagger.tsv`, pos-tagger.ts), set by the loaders when the folder has
   * one; read on the first sentence (`taggerOf`), so a process that never ranks never reads it.
   */
  taggerFile?: string;
  /** The tagger once read (null when the model has none). */
  tagger?: PosTagger | null;
  meta: Record<string, unknown>;
}

/** One candidate reading of a token before ranking. */
export interface Candidate {
  lemma: string;
  pos: string;
  morphemes: Morpheme[];
  guess: boolean;
  source: 'lexicon' | 'rule' | 'guess';
  /** The stem is known only to the related language's lexicon (`LearnedModel.related`). */
  related?: boolean;
  /** The stem is known only to the cartridge's lexicon (`LearnedModel.cartridge`), not to the text's. */
  cartridge?: boolean;
  /** Features of the reading that do not depend on the neighbours. */
  features: string[];
  /** lemma, POS and segmentation: identifies the reading. */
  key: string;
}

/** What to leave out of the counts when reading a training token as if unseen (leave-one-out). */
export interface LeaveOut {
  reading: number;
  prefixTemplate: number;
  suffixTemplate: number;
  lexStem: string;
  lexTag: string;
  lexClass: string;
}

/** Feature -> weight, read-only: a Map, or a loaded model's `PackedWeights`. */
export interface FeatureWeights extends Iterable<[string, number]> {
  get(feature: string): number | undefined;
  readonly size: number;
}

/** FNV-1a of a string's UTF-16 code units. */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Feature weights packed: every feature in one string (`keys`, feature i from `starts[i]` to
 * `starts[i + 1]`), the weights in a Float64Array, and an open-addressing hash table of the features'
 * numbers. Half the memory of a Map of 30,000 strings to numbers, and as fast to look up.
 */
export class PackedWeights implements FeatureWeights {
  readonly keys: string;
  readonly starts: Uint32Array;
  readonly values: Float64Array;
  /** Slot -> feature number + 1 (0: empty); as many slots as a power of two above twice the features. */
  readonly slots: Uint32Array;
  readonly size: number;

  constructor(features: readonly string[], values: readonly number[]) {
    this.keys = features.join('');
    this.starts = new Uint32Array(features.length + 1);
    for (let i = 0; i < features.length; i++) this.starts[i + 1] = this.starts[i]! + features[i]!.length;
    this.values = Float64Array.from(values);
    let size = 16;
    while (size < features.length * 2) size *= 2;
    this.slots = new Uint32Array(size);
    for (let i = 0; i < features.length; i++) {
      let slot = hashOf(features[i]!) & (size - 1);
      for (;;) {
        const taken = this.slots[slot]!;
        if (taken === 0) break;
        // A feature listed twice keeps its last weight, as a Map would.
        if (this.#equals(taken - 1, features[i]!)) break;
        slot = (slot + 1) & (size - 1);
      }
      this.slots[slot] = i + 1;
    }
    this.size = this.slots.reduce((n, slot) => n + (slot === 0 ? 0 : 1), 0);
  }

  get(feature: string): number | undefined {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(feature) & mask; ; slot = (slot + 1) & mask) {
      const taken = this.slots[slot]!;
      if (taken === 0) return undefined;
      if (this.#equals(taken - 1, feature)) return this.values[taken - 1];
    }
  }

  *[Symbol.iterator](): Generator<[string, number]> {
    for (const slot of this.slots) if (slot !== 0) yield [this.keys.slice(this.starts[slot - 1], this.starts[slot]), this.values[slot - 1]!];
  }

  #equals(i: number, feature: string): boolean {
    const start = this.starts[i]!;
    if (this.starts[i + 1]! - start !== feature.length) return false;
    for (let k = 0; k < feature.length; k++) if (this.keys.charCodeAt(start + k) !== feature.charCodeAt(k)) return false;
    return true;
  }
}

/**
 * The ranker's context weights (features `kind=context|POS`, `pw=ukuthi|V`) packed by context: each
 * context (`pw=ukuthi`) names a run of entries, a POS id and a weight each, sorted by POS id, in typed
 * arrays. The ranker looks a token's contexts up once (method run) and each candidate's POS in them
 * (`weight`); a Map of Maps held the same in about four times the memory (23,000 small Maps for the largest model).
 */
export class ContextWeights {
  /** Context -> the number of its run. */
  readonly runs: Lookup<number>;
  /** Where each run starts in `posIds` and `values`; one entry more than runs (the end of the last). */
  readonly starts: Uint32Array;
  readonly posIds: Uint16Array;
  readonly values: Float64Array;
  /** POS -> its id in `posIds`. */
  readonly posIndex: Map<string, number>;

  /** From the entries of each run (in any order): `runOf[i]`, `posOf[i]`, `valueOf[i]` make entry i. */
  constructor(runs: Map<string, number>, posIndex: Map<string, number>, runOf: readonly number[], posOf: readonly number[], valueOf: readonly number[]) {
    if (posIndex.size > 0xffff) throw new Error(`too many POS tags in the context weights (${posIndex.size})`);
    this.runs = runs;
    this.posIndex = posIndex;
    const starts = new Uint32Array(runs.size + 1);
    for (const r of runOf) starts[r + 1]!++;
    for (let r = 0; r < runs.size; r++) starts[r + 1]! += starts[r]!;
    const fill = starts.slice(0, runs.size);
    this.posIds = new Uint16Array(runOf.length);
    this.values = new Float64Array(runOf.length);
    for (let i = 0; i < runOf.length; i++) {
      const at = fill[runOf[i]!]!++;
      this.posIds[at] = posOf[i]!;
      this.values[at] = valueOf[i]!;
    }
    // Each run sorted by POS id (insertion sort: runs are short), for the binary search of `weight`.
    for (let r = 0; r < runs.size; r++) {
      for (let i = starts[r]! + 1; i < starts[r + 1]!; i++) {
        const id = this.posIds[i]!;
        const value = this.values[i]!;
        let j = i - 1;
        for (; j >= starts[r]! && this.posIds[j]! > id; j--) {
          this.posIds[j + 1] = this.posIds[j]!;
          this.values[j + 1] = this.values[j]!;
        }
        this.posIds[j + 1] = id;
        this.values[j + 1] = value;
      }
    }
    this.starts = starts;
  }

  /** Context weights from their packed arrays as they are (a model's binary file, model-file.ts). */
  static packed(runs: Lookup<number>, posIndex: Map<string, number>, starts: Uint32Array, posIds: Uint16Array, values: Float64Array): ContextWeights {
    const packed = Object.create(ContextWeights.prototype) as ContextWeights;
    Object.assign(packed, { runs, posIndex, starts, posIds, values });
    return packed;
  }

  /** The context features among `weights` (the rest are left out), packed. */
  static of(weights: Iterable<[string, number]>): ContextWeights {
    const builder = new ContextWeightsBuilder();
    for (const [feature, weight] of weights) {
      if (!isContextFeature(feature)) continue;
      const bar = feature.lastIndexOf('|');
      builder.add(feature.slice(0, bar), feature.slice(bar + 1), weight);
    }
    return builder.build();
  }

  /** The run of a context (`pp=N01`), or -1 when no feature has it. */
  run(context: string): number {
    return this.runs.get(context) ?? -1;
  }

  /** The id of a POS, or -1 when no context feature has it. */
  posId(pos: string): number {
    return this.posIndex.get(pos) ?? -1;
  }

  /** The weight of POS `posId` in the given run (0 when the run has none, or when the run or `posId` is -1). */
  weight(run: number, posId: number): number {
    if (run < 0 || posId < 0) return 0;
    let lo = this.starts[run]!;
    let hi = this.starts[run + 1]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.posIds[mid]!;
      if (id === posId) return this.values[mid]!;
      if (id < posId) lo = mid + 1;
      else hi = mid;
    }
    return 0;
  }

  /** Every feature as `context|POS` with its weight. */
  *entries(): Generator<[string, number]> {
    const pos: string[] = [];
    for (const [name, id] of this.posIndex) pos[id] = name;
    for (const [context, r] of this.runs) for (let i = this.starts[r]!; i < this.starts[r + 1]!; i++) yield [`${context}|${pos[this.posIds[i]!]}`, this.values[i]!];
  }
}

/** Collects context weights entry by entry (`add`), then packs them (`build`). */
class ContextWeightsBuilder {
  readonly #runs = new Map<string, number>();
  readonly #posIndex = new Map<string, number>();
  readonly #runOf: number[] = [];
  readonly #posOf: number[] = [];
  readonly #valueOf: number[] = [];

  add(context: string, pos: string, weight: number): void {
    let run = this.#runs.get(context);
    if (run === undefined) this.#runs.set(context, (run = this.#runs.size));
    let id = this.#posIndex.get(pos);
    if (id === undefined) this.#posIndex.set(pos, (id = this.#posIndex.size));
    this.#runOf.push(run);
    this.#posOf.push(id);
    this.#valueOf.push(weight);
  }

  build(): ContextWeights {
    return new ContextWeights(this.#runs, this.#posIndex, this.#runOf, this.#posOf, this.#valueOf);
  }
}

const NOUN_CLASS = /^(?:[A-Za-z]*Pre)(\d+a?)$/;

/** The noun class carried by the last class-marked prefix among `before` ('' when none). */
export function nounClassOf(before: readonly Morpheme[]): string {
  for (let i = before.length - 1; i >= 0; i--) {
    const match = NOUN_CLASS.exec(before[i]!.tag);
    if (match) return match[1]!;
  }
  return '';
}

export function readingKey(lemma: string, pos: string, morphemes: ReadonlyArray<Pick<Morpheme, 'canonical' | 'tag'>>): string {
  return `${lemma}\t${pos}\t${formatSegmentation(morphemes)}`;
}

/** `rewrite` as stored: the written part and the canonical part, anchored at the stem's start or not. */
export function stemRewrite(surface: string, canonical: string): string {
  const s = surface.toLowerCase();
  const c = canonical.toLowerCase();
  if (s === c) return '';
  let cp = 0;
  while (cp < s.length && cp < c.length && s[cp] === c[cp]) cp++;
  let cs = 0;
  while (cs < s.length - cp && cs < c.length - cp && s[s.length - 1 - cs] === c[c.length - 1 - cs]) cs++;
  if (cp <= 1) return `^${s.slice(0, s.length - cs)}>${c.slice(0, c.length - cs)}`;
  const from = s.slice(cp - 1, s.length - cs);
  const to = c.slice(cp - 1, c.length - cs);
  return `${from}>${to}`;
}

/** The canonical stem of a written stem under a rewrite, or null where the rewrite does not apply. */
export function applyRewrite(stem: string, rewrite: string): string | null {
  if (rewrite === '') return stem;
  const anchored = rewrite.startsWith('^');
  const body = anchored ? rewrite.slice(1) : rewrite;
  const gt = body.indexOf('>');
  const from = body.slice(0, gt);
  const to = body.slice(gt + 1);
  if (anchored) return stem.startsWith(from) ? to + stem.slice(from.length) : null;
  const at = stem.lastIndexOf(from);
  if (at < 0) return null;
  return stem.slice(0, at) + to + stem.slice(at + from.length);
}

function encodeMorphemes(morphemes: readonly Morpheme[]): [string, string] {
  return [formatSegmentation(morphemes), morphemes.map((m) => m.surface).join('|')];
}

function decodeMorphemes(segmentation: string, surfaces: string): Morpheme[] {
  if (segmentation === '') return [];
  const parsed = parseSegmentation(segmentation);
  const written = surfaces.split('|');
  return parsed.map((m, i) => ({ surface: written[i] ?? '', canonical: m.canonical, tag: m.tag }));
}

type StoredParts = Omit<LearnedModel, 'prefixIndex' | 'suffixIndex' | 'maxPrefix' | 'maxSuffix'>;

const byKey = <T, U>(a: [string, T], b: [string, U]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The model's files as text (the learn script writes them; `loadModel` reads them back). */
export function serializeModel(model: StoredParts): Record<string, string> {
  const readings = ['lemma\tpos\tsegmentation\tsurfaces', ...model.readings.map((r, i) => (r ? [r.lemma, r.pos, ...encodeMorphemes(r.morphemes)].join('\t') : model.rawReadings!.at(i)!))];
  const forms = ['form\treadings'];
  for (const [form] of [...model.forms].sort(byKey))
    forms.push(
      `${form}\t${formEntries(model, form)!
        .map(([r, c]) => `${r}:${c}`)
        .join(' ')}`,
    );
  const prefixes = [
    'count\tprefix\tpos\tbefore\tbefore_surfaces\tstem_tag\trewrite\tkeep_case\tnoun_class',
    ...[...model.prefixTemplates].map((p) => [p.count, p.prefix, p.pos, ...encodeMorphemes(p.before), p.stemTag, p.rewrite, p.keepCase ? 1 : 0, p.nounClass].join('\t')),
  ];
  const suffixes = [
    'count\tsuffix\tafter\tafter_surfaces\tstem_tag\tlemma_add\trewrite',
    ...[...model.suffixTemplates].map((p) => [p.count, p.suffix, ...encodeMorphemes(p.after), p.stemTag, p.lemmaAdd, p.rewrite].join('\t')),
  ];
  const pairs = ['prefix_template\tsuffix_template\tcount', ...[...model.pairs].sort(byKey).map(([k, c]) => `${k.replace(' ', '\t')}\t${c}`)];
  const lexicon = ['stem\ttag\tnoun_class\tcount'];
  for (const [key, count] of [...model.lexicon].sort(byKey)) if (key.split('\t').length === 3) lexicon.push(`${key}\t${count}`);
  const related = ['stem\ttag\tnoun_class\tcount'];
  for (const [key, count] of [...(model.related ?? [])].sort(byKey)) if (key.split('\t').length === 3) related.push(`${key}\t${count}`);
  const cartridge = ['stem\ttag\tnoun_class\tcount'];
  for (const [key, count] of [...(model.cartridge ?? [])].sort(byKey)) if (key.split('\t').length === 3) cartridge.push(`${key}\t${count}`);
  const weights = ['feature\tweight'];
  const all = new Map(model.weights);
  for (const [feature, weight] of model.context?.entries() ?? []) all.set(feature, weight);
  for (const [feature, weight] of [...all].sort(byKey)) weights.push(`${feature}\t${+weight.toFixed(4)}`);
  return {
    'readings.tsv': readings.join('\n') + '\n',
    'forms.tsv': forms.join('\n') + '\n',
    'prefixes.tsv': prefixes.join('\n') + '\n',
    'suffixes.tsv': suffixes.join('\n') + '\n',
    'pairs.tsv': pairs.join('\n') + '\n',
    'lexicon.tsv': lexicon.join('\n') + '\n',
    'weights.tsv': weights.join('\n') + '\n',
    ...(model.related ? { 'related-lexicon.tsv': related.join('\n') + '\n' } : {}),
    ...(model.cartridge ? { 'cartridge-lexicon.tsv': cartridge.join('\n') + '\n' } : {}),
    'meta.yaml': yamlLibrary().stringify({ ...model.meta, language: model.language, scale: model.scale }),
  };
}

/** Lines of the model files read between two pauses of a load (`loadModelSteps`). */
const LINES_PER_STEP = 128;

/** Each non-empty line of a TSV file after its header, split at its tabs (a pause every LINES_PER_STEP lines). */
function* eachRow(text: string, row: (cells: string[]) => void): Generator<void, void> {
  let at = text.indexOf('\n') + 1;
  let n = 0;
  while (at > 0 && at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    if (end > at) row(text.slice(at, end).split('\t'));
    at = end + 1;
    if (++n % LINES_PER_STEP === 0) yield;
  }
}

/** Adds the lexicon's three keys for one stem. */
export function addLexicon(lexicon: Map<string, number>, stem: string, tag: string, nounClass: string, count: number): void {
  for (const key of [`${stem}\t${tag}\t${nounClass}`, `${stem}\t${tag}`, stem]) lexicon.set(key, (lexicon.get(key) ?? 0) + count);
}

/** Builds the indexes of a model from its stored parts. */
export function indexModel(parts: StoredParts): LearnedModel {
  return runSteps(indexModelSteps(parts));
}

/** `indexModel` as steps (a pause every LINES_PER_STEP templates). */
function* indexModelSteps(parts: StoredParts): Generator<void, LearnedModel> {
  function* index<T>(list: TemplateList<T>, key: (t: T) => string): Generator<void, [Map<string, number[]>, number]> {
    const map = new Map<string, number[]>();
    let longest = 0;
    for (let i = 0; i < list.length; i++) {
      const k = key(list.at(i)!);
      const ids = map.get(k);
      if (ids) ids.push(i);
      else map.set(k, [i]);
      longest = Math.max(longest, k.length);
      if ((i + 1) % LINES_PER_STEP === 0) yield;
    }
    return [map, longest];
  }
  const [prefixIndex, maxPrefix] = yield* index(parts.prefixTemplates, (p) => p.prefix);
  const [suffixIndex, maxSuffix] = yield* index(parts.suffixTemplates, (p) => p.suffix);
  return { ...parts, prefixIndex, suffixIndex, maxPrefix, maxSuffix };
}

/**
 * Prefix templates cut at a morpheme boundary: a head of one template (its leading morphemes, with
 * the reading's POS) and a tail of another (its trailing morphemes, with the stem's tag) that meet
 * on the same morpheme tag make a prefix sequence the text never showed whole. Heads and tails are
 * found by their written letters on demand (the templates sorted by their written prefix, forwards
 * and backwards) and kept, so a model loads without building them all.
 */
interface Composition {
  /** Template ids sorted by written prefix, and the prefixes in that order. */
  forward: ArrayLike<number>;
  forwardKeys: readonly string[];
  /** Template ids sorted by reversed written prefix, and the reversed prefixes in that order. */
  backward: ArrayLike<number>;
  backwardKeys: readonly string[];
  heads: Map<string, PrefixPart[]>;
  tails: Map<string, Map<string, PrefixPart[]>>;
  /**
   * `tag tag` -> how many prefix templates have a morpheme of the first tag right before one of the
   * second: which morphemes may follow which, so a head and a tail that met on another tag still join
   * where their two tags are attested side by side (`e[LocPre]` + `zi[BPre8]`, from `i-zi-` nouns).
   */
  bigrams: Lookup<number>;
  /**
   * The stem tags after a written prefix ending in a hyphen (`lwe-IDP`, `ama-4`), those of at least 5
   * such templates, with whether the stem keeps its letter case (most of their templates).
   */
  hyphenTags: Array<[string, boolean]>;
}

const compositions = new WeakMap<LearnedModel, Composition>();

/** The model's `PrefixOrder`: read from its file, else computed from its prefix templates. */
export function prefixOrderOf(model: Pick<LearnedModel, 'prefixTemplates' | 'prefixOrder'>): PrefixOrder {
  if (model.prefixOrder) return model.prefixOrder;
  const templates = [...model.prefixTemplates];
  const sortedBy = (key: (id: number) => string): [number[], string[]] => {
    const ids = templates.map((_, i) => i);
    const keys = ids.map(key);
    ids.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
    return [ids, ids.map((i) => keys[i]!)];
  };
  const [forward, forwardKeys] = sortedBy((i) => templates[i]!.prefix);
  const [backward, backwardKeys] = sortedBy((i) => [...templates[i]!.prefix].reverse().join(''));
  const bigrams = new Map<string, number>();
  for (const t of templates) for (const key of tagBigrams(t.before)) bigrams.set(key, (bigrams.get(key) ?? 0) + 1);
  const byTag = new Map<string, [number, number]>();
  for (const t of templates) {
    if (!t.prefix.endsWith('-') || t.before.length === 0) continue;
    const counts = byTag.get(t.stemTag) ?? [0, 0];
    counts[0]++;
    if (t.keepCase) counts[1]++;
    byTag.set(t.stemTag, counts);
  }
  const hyphenTags: Array<[string, boolean]> = [...byTag].filter(([, [all]]) => all >= 5).map(([tag, [all, kept]]) => [tag, kept * 2 > all]);
  return { forward, forwardKeys, backward, backwardKeys, bigrams, hyphenTags };
}

function compositionOf(model: LearnedModel): Composition {
  let c = compositions.get(model);
  if (c) return c;
  c = { ...prefixOrderOf(model), heads: new Map(), tails: new Map() };
  compositions.set(model, c);
  return c;
}

/** The distinct `tag tag` pairs of neighbouring morphemes in `before`. */
function tagBigrams(before: readonly Morpheme[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < before.length; i++) out.add(`${before[i - 1]!.tag} ${before[i]!.tag}`);
  return out;
}

/** The template ids whose key (in `keys`, sorted) starts with `start`, in template order. */
function idsStartingWith(ids: ArrayLike<number>, keys: readonly string[], start: string): number[] {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < keys.length && keys[i]!.startsWith(start); i++) out.push(ids[i]!);
  return out.sort((a, b) => a - b);
}

/** The heads of prefix templates written `written` (null when none). */
function headsOf(model: LearnedModel, written: string): PrefixPart[] | null {
  const c = compositionOf(model);
  const cached = c.heads.get(written);
  if (cached !== undefined) return cached.length ? cached : null;
  const byKey = new Map<string, PrefixPart>();
  const list: PrefixPart[] = [];
  for (const id of idsStartingWith(c.forward, c.forwardKeys, written)) {
    const t = model.prefixTemplates.at(id)!;
    let length = 0;
    for (let k = 1; k <= t.before.length; k++) {
      length += t.before[k - 1]!.surface.length;
      if (length < written.length) continue;
      if (length > written.length) break;
      const ms = t.before.slice(0, k);
      const key = `${formatSegmentation(ms)}\t${ms.map((m) => m.surface).join('|')}\t${t.pos}`;
      const part = byKey.get(key);
      if (part) part.count += t.count;
      else {
        const made: PrefixPart = { morphemes: ms, junction: ms[k - 1]!.tag, pos: t.pos, stemTag: '', rewrite: '', keepCase: false, count: t.count };
        byKey.set(key, made);
        list.push(made);
      }
    }
  }
  if (written !== '' && (list.length > 0 || c.heads.size < 100_000)) c.heads.set(written, list);
  return list.length ? list : null;
}

/** The tails of prefix templates written `written`, by the tag before them (null when none). */
function tailsOf(model: LearnedModel, written: string): Map<string, PrefixPart[]> | null {
  const c = compositionOf(model);
  const cached = c.tails.get(written);
  if (cached !== undefined) return cached.size ? cached : null;
  const byKey = new Map<string, PrefixPart>();
  const byJunction = new Map<string, PrefixPart[]>();
  const reversed = [...written].reverse().join('');
  for (const id of idsStartingWith(c.backward, c.backwardKeys, reversed)) {
    const t = model.prefixTemplates.at(id)!;
    let length = 0;
    for (const m of t.before) length += m.surface.length;
    for (let j = 1; j < t.before.length; j++) {
      length -= t.before[j - 1]!.surface.length;
      if (length > written.length) continue;
      if (length < written.length) break;
      const ms = t.before.slice(j);
      const junction = t.before[j - 1]!.tag;
      const key = `${junction}\t${formatSegmentation(ms)}\t${ms.map((m) => m.surface).join('|')}\t${t.stemTag}\t${t.rewrite}\t${t.keepCase}`;
      const part = byKey.get(key);
      if (part) part.count += t.count;
      else {
        const made: PrefixPart = { morphemes: ms, junction, pos: '', stemTag: t.stemTag, rewrite: t.rewrite, keepCase: t.keepCase, count: t.count };
        byKey.set(key, made);
        const list = byJunction.get(junction);
        if (list) list.push(made);
        else byJunction.set(junction, [made]);
      }
    }
  }
  if (written !== '' && (byJunction.size > 0 || c.tails.size < 100_000)) c.tails.set(written, byJunction);
  return byJunction.size ? byJunction : null;
}

/** The lemma of reading `r` (without decoding the rest of it). */
function lemmaOfReading(model: LearnedModel, r: number): string {
  const reading = model.readings[r];
  if (reading) return reading.lemma;
  const line = model.rawReadings!.at(r)!;
  return line.slice(0, line.indexOf('\t'));
}

/** The readings of a lower-cased form as [reading index, count] pairs (undefined when the text never had it). */
export function formEntries(model: Pick<LearnedModel, 'forms' | 'formLists'>, form: string): Array<[number, number]> | undefined {
  const stored = model.forms.get(form);
  if (typeof stored !== 'number') return stored;
  const lists = model.formLists!;
  const list: Array<[number, number]> = [];
  for (let k = 0, at = stored + 1; k < lists[stored]!; k++, at += 2) list.push([lists[at]!, lists[at + 1]!]);
  return list;
}

/**
 * Each line of a TSV file's bytes after its header that has a tab after its first byte:
 * `line(start, tab, end)`, the byte offsets of its start, its first tab and its end (a pause every
 * LINES_PER_STEP lines). A tab or a newline byte is never part of a UTF-8 sequence.
 */
function* eachByteLine(bytes: Buffer, line: (start: number, tab: number, end: number) => void): Generator<void, void> {
  let at = bytes.indexOf(10) + 1;
  let n = 0;
  while (at > 0 && at < bytes.length) {
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    const tab = bytes.indexOf(9, at);
    if (tab > at && tab < end) line(at, tab, end);
    at = end + 1;
    if (++n % LINES_PER_STEP === 0) yield;
  }
}

/** How many tokens of the text have each lemma (lower-cased), built once per model on first use. */
export function lemmaCounts(model: LearnedModel): Lookup<number> {
  if (model.lemmas) return model.lemmas;
  const lemmas = new Map<string, number>();
  const add = (r: number, count: number): void => {
    const lemma = lemmaOfReading(model, r).toLowerCase();
    lemmas.set(lemma, (lemmas.get(lemma) ?? 0) + count);
  };
  const lists = model.formLists;
  for (const stored of model.forms.values()) {
    if (typeof stored !== 'number') for (const [r, count] of stored) add(r, count);
    else for (let k = 0, at = stored + 1; k < lists![stored]!; k++, at += 2) add(lists![at]!, lists![at + 1]!);
  }
  model.lemmas = lemmas;
  return lemmas;
}

/** The model in `dir` (a cartridge's `text/` folder), or null when it has none. */
export function loadModel(dir: string): LearnedModel | null {
  return withTaggerFile(runSteps(loadModelSteps(dir)), dir);
}

/** `model` with its folder's tagger file noted (when the folder `dir` has one). */
export function withTaggerFile<T extends LearnedModel | null>(model: T, dir: string): T {
  const file = path.join(dir, 'tagger.tsv');
  if (model && existsSync(file)) model.taggerFile = file;
  return model;
}

/** The model's POS tagger, read from its file on first use; null when it has none. */
export function taggerOf(model: LearnedModel): PosTagger | null {
  if (model.tagger === undefined) model.tagger = model.taggerFile ? PosTagger.parse(readFileSync(model.taggerFile, 'utf8')) : null;
  return model.tagger;
}

/**
 * The same model as `loadModel` (the same steps, run to the same end), read in slices of about
 * `sliceMs` with a turn of the event loop between them, so a server warming its analysers in the
 * background keeps answering meanwhile.
 */
export function loadModelInBackground(dir: string, sliceMs = 20): Promise<LearnedModel | null> {
  return runStepsInSlices(loadModelSteps(dir), sliceMs).then((model) => withTaggerFile(model, dir));
}

/** Reads the model in `dir`, pausing (`yield`) every LINES_PER_STEP lines of its files; null when it has none. */
function* loadModelSteps(dir: string): Generator<void, LearnedModel | null> {
  if (!existsSync(path.join(dir, 'meta.yaml'))) return null;
  const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
  const meta = yamlLibrary().parse(read('meta.yaml')) as Record<string, unknown>;
  // Every line after the header, empty ones too (a reading's index is its line), but a last empty one;
  // each decoded on its own from the bytes, a flat string (a slice of the file's text would keep the whole file).
  const readingBytes = readFileSync(path.join(dir, 'readings.tsv'));
  const rawReadings: string[] = [];
  for (let at = readingBytes.indexOf(10) + 1, n = 1; at > 0; n++) {
    const end = readingBytes.indexOf(10, at);
    rawReadings.push(readingBytes.toString('utf8', at, end < 0 ? readingBytes.length : end));
    if (end < 0) break;
    at = end + 1;
    if (n % LINES_PER_STEP === 0) yield;
  }
  if (rawReadings[rawReadings.length - 1] === '') rawReadings.pop();
  const readings = new Array<StoredReading | undefined>(rawReadings.length);
  // Each form's readings packed in one array (`formLists`: the number of pairs, then reading and count of each).
  const forms = new Map<string, Array<[number, number]> | number>();
  const lists: number[] = [];
  const formBytes = readFileSync(path.join(dir, 'forms.tsv'));
  yield* eachByteLine(formBytes, (start, tab, end) => {
    const at = lists.length;
    lists.push(0);
    let value = 0;
    let reading = 0;
    for (let i = tab + 1; i <= end; i++) {
      const byte = i < end ? formBytes[i]! : 32;
      if (byte >= 48 && byte <= 57) value = value * 10 + byte - 48;
      else if (byte === 58) [reading, value] = [value, 0];
      else if (byte === 32 && i > tab + 1) {
        lists.push(reading, value);
        lists[at]!++;
        value = 0;
      }
    }
    forms.set(formBytes.toString('utf8', start, tab), at);
  });
  const formLists = Uint32Array.from(lists);
  // The templates' strings and morphemes, each kept once (frozen: templates share them).
  const strings = new Map<string, string>();
  const once = (text: string): string => {
    const known = strings.get(text);
    if (known !== undefined) return known;
    strings.set(text, text);
    return text;
  };
  const morphemeLists = new Map<string, readonly Morpheme[]>();
  const morphemes = new Map<string, Morpheme>();
  const sharedMorphemes = (segmentation: string, surfaces: string): Morpheme[] => {
    const key = `${segmentation}\t${surfaces}`;
    let list = morphemeLists.get(key);
    if (!list) {
      list = Object.freeze(
        decodeMorphemes(segmentation, surfaces).map((m) => {
          const mkey = `${m.surface}\t${m.canonical}\t${m.tag}`;
          let shared = morphemes.get(mkey);
          if (!shared) morphemes.set(mkey, (shared = Object.freeze({ surface: once(m.surface), canonical: once(m.canonical), tag: once(m.tag) })));
          return shared;
        }),
      );
      morphemeLists.set(key, list);
    }
    return list as Morpheme[];
  };
  const prefixTemplates: PrefixTemplate[] = [];
  yield* eachRow(read('prefixes.tsv'), (r) =>
    prefixTemplates.push({
      count: Number(r[0]),
      prefix: r[1]!,
      pos: once(r[2]!),
      before: sharedMorphemes(r[3]!, r[4]!),
      stemTag: once(r[5]!),
      rewrite: once(r[6]!),
      keepCase: r[7] === '1',
      nounClass: once(r[8] ?? ''),
    }),
  );
  const suffixTemplates: SuffixTemplate[] = [];
  yield* eachRow(read('suffixes.tsv'), (r) =>
    suffixTemplates.push({
      count: Number(r[0]),
      suffix: r[1]!,
      after: sharedMorphemes(r[2]!, r[3]!),
      stemTag: once(r[4]!),
      lemmaAdd: once(r[5]!),
      rewrite: once(r[6]!),
    }),
  );
  const pairs = new Map<string, number>();
  yield* eachRow(read('pairs.tsv'), ([p, q, c]) => pairs.set(`${p} ${q}`, Number(c)));
  const lexicon = yield* readLexiconFile(path.join(dir, 'lexicon.tsv'));
  const related = relatedLexiconFile(meta) ? yield* readLexiconFile(path.join(dir, relatedLexiconFile(meta)!)) : undefined;
  const cartridge = cartridgeLexiconFile(meta) ? yield* readLexiconFile(path.join(dir, cartridgeLexiconFile(meta)!)) : undefined;
  const features: string[] = [];
  const values: number[] = [];
  const context = new ContextWeightsBuilder();
  const weightBytes = readFileSync(path.join(dir, 'weights.tsv'));
  yield* eachByteLine(weightBytes, (start, tab, end) => {
    // Each key decoded from the bytes on its own: a flat string (a slice of the file's text would keep the whole file).
    const feature = weightBytes.toString('utf8', start, tab);
    const weight = Number(weightBytes.toString('latin1', tab + 1, end));
    const bar = tab > start ? weightBytes.lastIndexOf(0x7c, tab - 1) : -1;
    if (!isContextFeature(feature) || bar < start) {
      features.push(feature);
      values.push(weight);
    } else context.add(weightBytes.toString('utf8', start, bar), weightBytes.toString('utf8', bar + 1, tab), weight);
  });
  return yield* indexModelSteps({
    language: String(meta.language ?? path.basename(path.dirname(dir))),
    readings,
    rawReadings,
    forms,
    formLists,
    prefixTemplates,
    suffixTemplates,
    pairs,
    lexicon,
    ...(related ? { related } : {}),
    ...(cartridge ? { cartridge } : {}),
    weights: new PackedWeights(features, values),
    context: context.build(),
    scale: Number(meta.scale ?? 1),
    meta,
  });
}

/** The file of a model's related-language lexicon (meta.yaml `related_lexicon.file`), if it has one. */
export function relatedLexiconFile(meta: Record<string, unknown>): string | undefined {
  const related = meta.related_lexicon as { file?: unknown } | undefined;
  return related && typeof related.file === 'string' ? related.file : undefined;
}

/** The file of a model's stems from the cartridge's lexicon (meta.yaml `cartridge_lexicon.file`), if it has one. */
export function cartridgeLexiconFile(meta: Record<string, unknown>): string | undefined {
  const cartridge = meta.cartridge_lexicon as { file?: unknown } | undefined;
  return cartridge && typeof cartridge.file === 'string' ? cartridge.file : undefined;
}

/** A lexicon file's stems as the three keys of each (addLexicon's), decoded from the bytes: flat strings. */
function* readLexiconFile(file: string): Generator<void, Map<string, number>> {
  const lexicon = new Map<string, number>();
  const bytes = readFileSync(file);
  yield* eachByteLine(bytes, (start, tab, end) => {
    const tagEnd = bytes.indexOf(9, tab + 1);
    const classEnd = tagEnd < 0 || tagEnd >= end ? -1 : bytes.indexOf(9, tagEnd + 1);
    if (classEnd < 0 || classEnd >= end) return;
    const count = Number(bytes.toString('latin1', classEnd + 1, end));
    for (const keyEnd of [classEnd, tagEnd, tab]) {
      const key = bytes.toString('utf8', start, keyEnd);
      lexicon.set(key, (lexicon.get(key) ?? 0) + count);
    }
  });
  return lexicon;
}

/** Letters of a token reduced to their kind (`Aa-AAA`, `9.9`), runs collapsed. */
export function shapeOf(token: string): string {
  let shape = '';
  for (const ch of token) {
    const kind = /\p{Lu}/u.test(ch) ? 'A' : /\p{L}/u.test(ch) ? 'a' : /\p{N}/u.test(ch) ? '9' : ch;
    if (!shape.endsWith(kind)) shape += kind;
  }
  return shape.length > 8 ? shape.slice(0, 8) : shape;
}

function bin(count: number): number {
  return count <= 0 ? 0 : Math.min(8, 1 + Math.floor(Math.log2(count)));
}

/**
 * Threshold features of a count (`name>=b|tag` for every odd log2 bin b up to the count's own, `bin()`:
 * `>=1` for a count of 1 or more, `>=3` for 4 or more, `>=5` for 16, `>=7` for 64):
 * a count that passes a threshold shares that feature's weight with every larger count, so the ranker
 * learns how much more a count is worth from all the counts above it rather than from one bin alone.
 */
function atLeast(name: string, count: number, tag: string): string[] {
  const out: string[] = [];
  for (let b = 1; b <= bin(count); b += 2) out.push(`${name}>=${b}|${tag}`);
  return out;
}

/** Features of a candidate that depend on the token alone (the neighbours are added by the ranker). */
function baseFeatures(token: string, pos: string, shape = shapeOf(token)): string[] {
  const lower = token.toLowerCase();
  return [`pos=${pos}`, `shape=${shape}|${pos}`, `suf3=${lower.slice(-3)}|${pos}`, `pre3=${lower.slice(0, 3)}|${pos}`];
}

/** Reading `r` of the model, decoded on first use. */
export function readingAt(model: LearnedModel, r: number): StoredReading {
  let reading = model.readings[r];
  if (!reading) {
    const [lemma, pos, seg, surf] = model.rawReadings!.at(r)!.split('\t');
    reading = { lemma: lemma!, pos: pos!, morphemes: decodeMorphemes(seg ?? '', surf ?? '') };
    model.readings[r] = reading;
  }
  return reading;
}

/** Candidates from the word-form table (null when the form was not seen, or only in the left-out token). */
export function seenCandidates(model: LearnedModel, token: string, leaveOut?: LeaveOut): Candidate[] | null {
  const list = formEntries(model, token.toLowerCase());
  if (!list) return null;
  let total = 0;
  const counted: Array<[number, number]> = [];
  for (const [r, c] of list) {
    const count = leaveOut && leaveOut.reading === r ? c - 1 : c;
    if (count > 0) {
      counted.push([r, count]);
      total += count;
    }
  }
  if (total === 0) return null;
  // The form's annotations by POS: a POS the form has under several segmentations or lemmas counts as one.
  const byPos = new Map<string, number>();
  for (const [r, count] of counted) {
    const pos = readingAt(model, r).pos;
    byPos.set(pos, (byPos.get(pos) ?? 0) + count);
  }
  let most = 0;
  for (const count of byPos.values()) if (count > most) most = count;
  const out: Candidate[] = counted.map(([r, count], rank) => {
    const reading = readingAt(model, r);
    const share = Math.min(9, Math.floor((count / total) * 10));
    const ofPos = byPos.get(reading.pos)!;
    return {
      lemma: reading.lemma,
      pos: reading.pos,
      morphemes: reading.morphemes,
      guess: false,
      source: 'lexicon',
      key: readingKey(reading.lemma, reading.pos, reading.morphemes),
      features: [
        ...baseFeatures(token, reading.pos),
        'seen',
        `share=${share}`,
        `rank=${Math.min(rank, 3)}`,
        `fcount=${bin(total)}|share=${share}`,
        `pshare=${Math.min(9, Math.floor((ofPos / total) * 10))}`,
        `pmaj=${ofPos === most}|${bin(total)}`,
      ],
    };
  });
  return withAlternations(model, token, out);
}

/**
 * Readings a seen form's annotations lack but the text's others imply (meta.yaml `alternations`, learnt by
 * `learnAlternations`): `class` entries are concords written alike in two or more classes (`ya[PossConc#]`
 * of a possessive is class 4 or 9), so a reading in one class gets its twins in the others, the
 * concord's tag renamed; `stems` entries are two readings of one form the text has often, the same prefix
 * morphemes before either a root and suffixes or one stem that is the lemma (an infinitive `u-ku-sekel-a` as V,
 * `u-kwe-sekela[NStem]` as N15), so a reading of one kind gets the other (`collapse`: the root and suffixes
 * made one stem; `split`: a stem made root and final vowel).
 */
export interface Alternations {
  /** `POS group\tconcord\ttag with # for the class` -> the classes it is written alike in. */
  classes: Map<string, string[]>;
  /** `POS\tprefix tags` -> [other POS, the one stem's tag] (`collapse`). */
  collapse: Map<string, string[][]>;
  /** `POS\tprefix tags\tstem tag` -> [other POS, root tag, final vowel tag] (`split`). */
  split: Map<string, string[][]>;
}

const alternationsOfModel = new WeakMap<LearnedModel, Alternations | null>();

/** The model's alternations (meta.yaml `alternations`), null when it has none. */
export function alternationsOf(model: LearnedModel): Alternations | null {
  let found = alternationsOfModel.get(model);
  if (found === undefined) {
    const raw = model.meta.alternations as { classes?: unknown; stems?: unknown } | undefined;
    found = null;
    if (raw && typeof raw === 'object') {
      const classes = new Map<string, string[]>();
      const collapse = new Map<string, string[][]>();
      const split = new Map<string, string[][]>();
      for (const entry of Array.isArray(raw.classes) ? (raw.classes as string[][]) : []) classes.set(entry.slice(0, 3).join('\t'), entry.slice(3));
      for (const [from, to, prefix, kind, ...tags] of Array.isArray(raw.stems) ? (raw.stems as string[][]) : []) {
        if (kind === 'collapse') {
          const key = `${from}\t${prefix}`;
          collapse.set(key, [...(collapse.get(key) ?? []), [to!, tags[0]!]]);
        } else if (kind === 'split') {
          const key = `${from}\t${prefix}\t${tags[0]}`;
          split.set(key, [...(split.get(key) ?? []), [to!, tags[1]!, tags[2]!]]);
        }
      }
      found = { classes, collapse, split };
    }
    alternationsOfModel.set(model, found);
  }
  return found;
}

const POS_CLASS = /^(\D+?)(\d+a?)$/;
const TAG_CLASS = /\d+a?$/;

/** `POSS` + `4` -> `POSS04` (the text's POS tags write a class in two digits). */
function posWithClass(group: string, cls: string): string {
  return group + (/^\d(a?)$/.test(cls) ? `0${cls}` : cls);
}

/** The alternation key of a reading's concord: its POS group, its first morpheme and that morpheme's tag with its class as `#`. */
export function concordKey(pos: string, morphemes: readonly Pick<Morpheme, 'canonical' | 'tag'>[]): { key: string; cls: string } | null {
  const match = POS_CLASS.exec(pos);
  const first = morphemes[0];
  if (!match || !first || morphemes.length < 2) return null;
  const cls = match[2]!.replace(/^0+(?=\d)/, '');
  if (!new RegExp(`(^|\\D)${cls}$`).test(first.tag)) return null;
  return { key: `${match[1]}\t${first.canonical}\t${first.tag.replace(TAG_CLASS, '#')}`, cls };
}

/** The tag sequence a `pos` alternation is keyed by. */
export function tagSequence(morphemes: readonly Pick<Morpheme, 'tag'>[]): string {
  return morphemes.map((m) => m.tag).join('-');
}

function withAlternations(model: LearnedModel, token: string, candidates: Candidate[]): Candidate[] {
  const alternations = alternationsOf(model);
  if (!alternations) return candidates;
  const keys = new Set(candidates.map((c) => c.key));
  const out = candidates.slice();
  const add = (c: Candidate, pos: string, morphemes: Morpheme[], kind: string): void => {
    const key = readingKey(c.lemma, pos, morphemes);
    if (keys.has(key)) return;
    keys.add(key);
    out.push({ lemma: c.lemma, pos, morphemes, guess: false, source: 'rule', key, features: [...baseFeatures(token, pos), 'seen', `alt=${kind}`, `alt=${kind}|${pos}`] });
  };
  for (const c of candidates) {
    const concord = concordKey(c.pos, c.morphemes);
    const classes = concord && alternations.classes.get(concord.key);
    if (concord && classes?.includes(concord.cls)) {
      const group = POS_CLASS.exec(c.pos)![1]!;
      for (const cls of classes) {
        if (cls === concord.cls) continue;
        const morphemes = c.morphemes.map((m, i) => (i === 0 ? { ...m, tag: m.tag.replace(TAG_CLASS, cls) } : m));
        add(c, posWithClass(group, cls), morphemes, 'class');
      }
    }
    const ms = c.morphemes;
    for (let k = 1; k < ms.length - 1 && alternations.collapse.size > 0; k++) {
      for (const [pos, stemTag] of alternations.collapse.get(`${c.pos}\t${tagSequence(ms.slice(0, k))}`) ?? []) {
        const stem: Morpheme = {
          surface: ms
            .slice(k)
            .map((m) => m.surface)
            .join(''),
          canonical: c.lemma,
          tag: stemTag!,
        };
        add(c, pos!, [...ms.slice(0, k), stem], `collapse|${c.pos}`);
      }
    }
    const last = ms[ms.length - 1];
    if (last && ms.length > 1 && last.canonical === c.lemma && c.lemma.length >= 3 && last.surface.length >= 3) {
      for (const [pos, rootTag, endTag] of alternations.split.get(`${c.pos}\t${tagSequence(ms.slice(0, -1))}\t${last.tag}`) ?? []) {
        const root: Morpheme = { surface: last.surface.slice(0, -1), canonical: c.lemma.slice(0, -1), tag: rootTag! };
        const end: Morpheme = { surface: last.surface.slice(-1), canonical: c.lemma.slice(-1), tag: endTag! };
        add(c, pos!, [...ms.slice(0, -1), root, end], `split|${c.pos}`);
      }
    }
  }
  return out;
}

/** No stem of the annotated text is anywhere near this long; a longer token is read only whole. */
const MAX_STEM = 40;

/** How many readings with a known stem may come past the candidate limit. */
const KNOWN_STEM_EXTRA = 10;

/** Candidates from the word templates, for a token not in the word-form table; at most `limit`, best first by a rough prior. */
export function patternCandidates(model: LearnedModel, token: string, leaveOut?: LeaveOut, limit = 40): Candidate[] {
  const lower = token.toLowerCase();
  const n = lower.length;
  const lex = (key: string, stem: string, tag: string, nounClass: string, level: number): number => {
    let count = model.lexicon.get(key) ?? 0;
    if (leaveOut && count > 0 && leaveOut.lexStem === stem && (level === 0 || leaveOut.lexTag === tag) && (level < 2 || leaveOut.lexClass === nounClass)) count--;
    return count;
  };
  // The suffix templates that end the token, by length of the suffix.
  const suffixHits = new Map<string, Array<[number, number, number]>>();
  for (let s = 0; s <= Math.min(model.maxSuffix, n - 1); s++) {
    for (const id of model.suffixIndex.get(s === 0 ? '' : lower.slice(n - s)) ?? []) {
      const template = model.suffixTemplates.at(id)!;
      const count = template.count - (leaveOut?.suffixTemplate === id ? 1 : 0);
      if (count <= 0) continue;
      const list = suffixHits.get(template.stemTag);
      if (list) list.push([s, id, count]);
      else suffixHits.set(template.stemTag, [[s, id, count]]);
    }
  }
  const shape = shapeOf(token);
  const lemmas = lemmaCounts(model);
  const leftOutLemma = leaveOut ? (model.readings[leaveOut.reading]?.lemma ?? model.rawReadings?.at(leaveOut.reading)?.[0] ?? '').toLowerCase() : '';
  const countOf = (id: number): number => model.prefixTemplates.at(id)!.count - (leaveOut?.prefixTemplate === id ? 1 : 0);
  // Prefix options: whole templates, then a head of one template joined to a tail of another.
  const options: Array<{ p: number; pid: number; pre: PrefixTemplate; preCount: number; composed: boolean | 'bigram' | 'hyphen' }> = [];
  for (let p = 0; p <= Math.min(model.maxPrefix, n - 1); p++) {
    for (const pid of model.prefixIndex.get(lower.slice(0, p)) ?? []) {
      const preCount = countOf(pid);
      if (preCount > 0) options.push({ p, pid, pre: model.prefixTemplates.at(pid)!, preCount, composed: false });
    }
  }
  const composedOptions: typeof options = [];
  const { bigrams } = compositionOf(model);
  // The left-out token's own template counts once less (a pair only it had is not attested).
  const leftOutTemplate = leaveOut && leaveOut.prefixTemplate >= 0 ? model.prefixTemplates.at(leaveOut.prefixTemplate) : undefined;
  const leftOutBigrams = leftOutTemplate && leftOutTemplate.count <= 1 ? tagBigrams(leftOutTemplate.before) : new Set<string>();
  for (let q = 1; q < Math.min(model.maxPrefix, n - 2); q++) {
    const headList = headsOf(model, lower.slice(0, q));
    if (!headList) continue;
    for (let p = q + 1; p <= Math.min(q + model.maxPrefix, n - 2); p++) {
      const byJunction = tailsOf(model, lower.slice(q, p));
      if (!byJunction) continue;
      for (const head of headList) {
        // Tails that met a head on the same tag, then tails whose first morpheme the text has after this head's last one.
        const joined = new Set<string>();
        for (const [junction, tails] of byJunction) {
          const exactJunction = junction === head.junction;
          if (!exactJunction && byJunction.has(head.junction)) continue;
          for (const tail of tails) {
            if (!exactJunction) {
              const key = `${head.junction} ${tail.morphemes[0]!.tag}`;
              const attested = (bigrams.get(key) ?? 0) - (leftOutBigrams.has(key) ? 1 : 0);
              if (attested <= 0) continue;
            }
            const tailKey = `${formatSegmentation(tail.morphemes)}\t${tail.morphemes.map((m) => m.surface).join('|')}\t${tail.stemTag}\t${tail.rewrite}\t${tail.keepCase}`;
            if (joined.has(tailKey)) continue;
            joined.add(tailKey);
            const before = [...head.morphemes, ...tail.morphemes];
            composedOptions.push({
              p,
              pid: -1,
              composed: exactJunction ? true : 'bigram',
              preCount: Math.min(head.count, tail.count),
              pre: { count: 0, prefix: lower.slice(0, p), pos: head.pos, before, stemTag: tail.stemTag, rewrite: tail.rewrite, keepCase: tail.keepCase, nounClass: nounClassOf(before) },
            });
          }
        }
      }
    }
  }
  composedOptions.sort((x, y) => y.preCount - x.preCount || y.p - x.p);
  options.push(...composedOptions.slice(0, 60));
  // A hyphen after a prefix the text had only before letters (`eli-1`, `se-PFMA`): that prefix, then
  // the hyphen, then a stem of a tag the text writes after a hyphen (a number, an abbreviation, a name).
  // The rough prior puts these readings up and readings whose stem holds the hyphen down.
  const hyphen = lower.indexOf('-');
  if (hyphen > 0 && hyphen < n - 1) {
    const { hyphenTags } = compositionOf(model);
    const made = new Set<string>();
    for (const o of options.slice()) {
      if (o.p !== hyphen || o.pre.before.length === 0) continue;
      for (const [stemTag, keepCase] of hyphenTags) {
        const key = `${formatSegmentation(o.pre.before)}\t${o.pre.before.map((m) => m.surface).join('|')}\t${o.pre.pos}\t${stemTag}`;
        if (made.has(key)) continue;
        made.add(key);
        const last = o.pre.before.length - 1;
        const before = o.pre.before.map((m, i) => (i === last ? { ...m, surface: `${m.surface}-` } : m));
        options.push({
          p: hyphen + 1,
          pid: -1,
          composed: 'hyphen',
          preCount: o.preCount,
          pre: { count: 0, prefix: lower.slice(0, hyphen + 1), pos: o.pre.pos, before, stemTag, rewrite: '', keepCase, nounClass: o.pre.nounClass },
        });
      }
    }
  }
  // Stem facts: canonical stem, own lexicon counts (with tag and class, with tag, any), and, for a stem the
  // own lexicon lacks with its tag, the related language's lexicon's counts (with tag and class, with tag).
  const stems = new Map<string, StemFacts | null>();
  const related = model.related;
  const cartridge = model.cartridge;
  // Every combination is scored on numbers first; only the best `limit` become readings (few allocations).
  const priors: number[] = [];
  // Combination k is (option, suffix length, suffix template, stem facts, pair count) at index k of
  // these arrays, not a tuple each: a long word has thousands, and their tuples were most of what
  // running text promoted to the old generation (a sentence's combinations outlive a scavenge).
  const comboOption: number[] = [];
  const comboSuffixLength: number[] = [];
  const comboSuffix: number[] = [];
  const comboStem: StemFacts[] = [];
  const comboPair: number[] = [];
  options.forEach(({ p, pid, pre, preCount, composed }, oi) => {
    for (const [s, sid, sufCount] of suffixHits.get(pre.stemTag) ?? []) {
      if (p + s >= n) continue;
      const suf = model.suffixTemplates.at(sid)!;
      if ((n - s - p < (composed === 'hyphen' ? 1 : 2) || n - s - p > MAX_STEM) && p + s > 0) continue;
      const stemKey = `${p} ${s} ${pre.keepCase} ${pre.rewrite} ${suf.rewrite} ${pre.stemTag} ${pre.nounClass}`;
      let stemFacts = stems.get(stemKey);
      if (stemFacts === undefined) {
        const written = token.slice(p, n - s);
        let stem: string | null = pre.keepCase ? written : written.toLowerCase();
        stem = applyRewrite(stem, pre.rewrite);
        if (stem !== null) stem = applyRewrite(stem, suf.rewrite);
        if (stem === null || stem === '') stemFacts = null;
        else {
          const tagged = lex(`${stem}\t${pre.stemTag}`, stem, pre.stemTag, pre.nounClass, 1);
          const fallback = tagged === 0 && related !== undefined;
          const cartFallback = tagged === 0 && cartridge !== undefined;
          stemFacts = [
            stem,
            lex(`${stem}\t${pre.stemTag}\t${pre.nounClass}`, stem, pre.stemTag, pre.nounClass, 2),
            tagged,
            lex(stem, stem, pre.stemTag, pre.nounClass, 0),
            fallback ? (related.get(`${stem}\t${pre.stemTag}\t${pre.nounClass}`) ?? 0) : 0,
            fallback ? (related.get(`${stem}\t${pre.stemTag}`) ?? 0) : 0,
            cartFallback ? (cartridge.get(`${stem}\t${pre.stemTag}\t${pre.nounClass}`) ?? 0) : 0,
            cartFallback ? (cartridge.get(`${stem}\t${pre.stemTag}`) ?? 0) : 0,
          ];
        }
        stems.set(stemKey, stemFacts);
      }
      if (stemFacts === null) continue;
      const [, exact, tagged, any, relExact, relTagged, cartExact, cartTagged] = stemFacts;
      let pair = pid < 0 ? 0 : (model.pairs.get(`${pid} ${sid}`) ?? 0);
      if (leaveOut && leaveOut.prefixTemplate === pid && leaveOut.suffixTemplate === sid) pair--;
      priors.push(
        Math.log(preCount + 1) +
          Math.log(sufCount + 1) +
          (pair > 0 ? 1 + Math.log(pair) : 0) +
          (exact > 0 ? 4 : tagged > 0 ? 2.5 : relExact > 0 || cartExact > 0 ? 2 : relTagged > 0 || cartTagged > 0 ? 1.5 : any > 0 ? 1 : 0) +
          0.3 * (p + s) -
          (composed === 'bigram' ? 3 : composed === 'hyphen' ? -3 : composed ? 2 : 0) -
          (hyphen >= p && hyphen < n - s ? 3 : 0),
      );
      comboOption.push(oi);
      comboSuffixLength.push(s);
      comboSuffix.push(sid);
      comboStem.push(stemFacts);
      comboPair.push(pair);
    }
  });
  const build = (k: number): Candidate => {
    const oi = comboOption[k]!;
    const s = comboSuffixLength[k]!;
    const sid = comboSuffix[k]!;
    const [canonical, exact, tagged, any, relExact, relTagged, cartExact, cartTagged] = comboStem[k]!;
    const pair = comboPair[k]!;
    const { p, pre, preCount, composed } = options[oi]!;
    const suf = model.suffixTemplates.at(sid)!;
    const sufCount = suf.count - (leaveOut?.suffixTemplate === sid ? 1 : 0);
    const writtenStem = token.slice(p, n - s);
    const morphemes: Morpheme[] = [];
    let at = 0;
    for (const m of pre.before) {
      morphemes.push({ surface: token.slice(at, at + m.surface.length), canonical: m.canonical, tag: m.tag });
      at += m.surface.length;
    }
    morphemes.push({ surface: writtenStem, canonical, tag: pre.stemTag });
    at = n - s;
    for (const m of suf.after) {
      morphemes.push({ surface: token.slice(at, at + m.surface.length), canonical: m.canonical, tag: m.tag });
      at += m.surface.length;
    }
    const lemma = canonical + suf.lemmaAdd;
    const lowerLemma = lemma.toLowerCase();
    const lemmaCount = (lemmas.get(lowerLemma) ?? 0) - (lowerLemma === leftOutLemma ? 1 : 0);
    const fromRelated = tagged === 0 && relTagged > 0;
    const fromCartridge = tagged === 0 && cartTagged > 0;
    const guess = tagged === 0 && !fromRelated && !fromCartridge;
    const last = canonical.slice(-1).toLowerCase();
    const preSig = pre.before.map((m) => m.tag).join('-');
    const sufSig = suf.after.map((m) => m.tag).join('-');
    const features = [
      ...baseFeatures(token, pre.pos, shape),
      'unseen',
      `composed=${composed}`,
      `prc=${bin(preCount)}`,
      `suc=${bin(sufCount)}`,
      `pair=${bin(pair)}`,
      `pre=${lower.slice(0, p)}|${pre.pos}`,
      `suf=${lower.slice(n - s)}|${pre.pos}`,
      `psig=${preSig}|${pre.stemTag}|${pre.pos}`,
      `ssig=${sufSig}|${pre.stemTag}|${pre.pos}`,
      `lexexact=${bin(exact)}`,
      `lextag=${bin(tagged)}`,
      `lexany=${bin(any)}`,
      `lexexact>0|${pre.stemTag}|${exact > 0}`,
      `cover=${Math.min(p + s, 12)}`,
      `slen=${Math.min(writtenStem.length, 10)}|${pre.stemTag}`,
      `send=${'aeiou'.includes(last) ? 'V' : /\p{L}/u.test(last) ? 'C' : 'X'}|${pre.stemTag}`,
      `rw=${pre.rewrite}|${suf.rewrite}`,
      `rwstem=${pre.rewrite === '' ? '' : 'r'}|${writtenStem.slice(0, 2).toLowerCase()}|${pre.stemTag}`,
      `pairsig=${preSig}|${sufSig}|${pre.pos}`,
      `sfirst=${canonical.slice(0, 2).toLowerCase()}|${pre.stemTag}|${pre.nounClass}`,
      `lexpos=${bin(tagged)}|${pre.pos}`,
      `lemk=${bin(lemmaCount)}|${pre.stemTag}`,
      `lemk>0=${lemmaCount > 0}|${pre.pos}`,
      `ladd=${suf.lemmaAdd}|${sufSig}`,
      // The stem's last letters against what follows it (a verb root ending in -ek before -is, a stem ending in -el read whole).
      `stail2=${canonical.slice(-2).toLowerCase()}|${pre.stemTag}|${sufSig}`,
      `stail3=${canonical.slice(-3).toLowerCase()}|${pre.stemTag}|${pre.pos}`,
      // Whether the text has the lemma, against the suffixes cut off to make it (an extension kept in the lemma or not).
      `lemsig=${lemmaCount > 0}|${sufSig}`,
      ...atLeast('lemge', lemmaCount, pre.stemTag),
      ...atLeast('lexge', tagged, pre.stemTag),
      ...atLeast('exge', exact, pre.stemTag),
      ...atLeast('sucge', sufCount, pre.stemTag),
      ...atLeast('prcge', preCount, pre.stemTag),
    ];
    // A stem only the related language's lexicon knows: features of its own, so the ranker learns what such a stem is worth.
    if (fromRelated) features.push(`rel|${pre.stemTag}|${pre.pos}`, `relexact=${relExact > 0}|${pre.stemTag}`, `rellemk>0=${lemmaCount > 0}|${pre.stemTag}`, ...atLeast('relge', relTagged, pre.stemTag));
    const candidate: Candidate = { lemma, pos: pre.pos, morphemes, guess, source: guess ? 'guess' : 'rule', key: readingKey(lemma, pre.pos, morphemes), features };
    if (fromRelated) candidate.related = true;
    // A stem only the cartridge's lexicon lists: features of its own likewise.
    if (fromCartridge) {
      features.push(`cart|${pre.stemTag}|${pre.pos}`, `cartexact=${cartExact > 0}|${pre.stemTag}`, `cartlemk>0=${lemmaCount > 0}|${pre.stemTag}`);
      candidate.cartridge = true;
    }
    return candidate;
  };
  const order = priors.map((_, k) => k).sort((x, y) => priors[y]! - priors[x]! || x - y);
  const out: Candidate[] = [];
  const keys = new Set<string>();
  const optionKeys = new Map<number, string>();
  const suffixKeys = new Map<number, string>();
  for (const k of order) {
    // Past the limit, a few more readings whose stem the lexicon knows with its tag (a long word's
    // known root behind a prefix sequence the text never had whole ranks low by the rough prior).
    if (out.length >= limit + KNOWN_STEM_EXTRA) break;
    if (out.length >= limit && comboStem[k]![2] === 0 && comboStem[k]![5] === 0 && comboStem[k]![7] === 0) continue;
    // The reading a combination makes (its lemma, POS and segmentation), told before building it.
    const oi = comboOption[k]!;
    const sid = comboSuffix[k]!;
    const [canonical] = comboStem[k]!;
    let optionKey = optionKeys.get(oi);
    if (optionKey === undefined) {
      const o = options[oi]!;
      optionKey = `${o.pre.pos}\t${o.pre.stemTag}\t${formatSegmentation(o.pre.before)}`;
      optionKeys.set(oi, optionKey);
    }
    let suffixKey = suffixKeys.get(sid);
    if (suffixKey === undefined) {
      const t = model.suffixTemplates.at(sid)!;
      suffixKey = `${t.lemmaAdd}\t${formatSegmentation(t.after)}`;
      suffixKeys.set(sid, suffixKey);
    }
    const key = `${optionKey}\t${canonical}\t${suffixKey}`;
    if (keys.has(key)) continue;
    keys.add(key);
    out.push(build(k));
  }
  // Past the limit, up to the model's `lemma_extra` (meta.yaml; a model learnt before it has none) more
  // readings whose lemma the text has (leave-one-out counts) and none of the readings so far has, in a
  // POS one of them has: a known verb or noun behind templates the rough prior put low (the stem
  // rewrites of a passive, a stacked prefix) is then ranked with the rest.
  const lemmaExtra = typeof model.meta.lemma_extra === 'number' ? model.meta.lemma_extra : 0;
  if (lemmaExtra > 0 && out.length >= limit) {
    const lemmasSoFar = new Set(out.map((c) => c.lemma.toLowerCase()));
    const posSoFar = new Set(out.map((c) => c.pos));
    let added = 0;
    for (const k of order) {
      if (added >= lemmaExtra) break;
      const oi = comboOption[k]!;
      const sid = comboSuffix[k]!;
      const [canonical] = comboStem[k]!;
      const o = options[oi]!;
      if (!posSoFar.has(o.pre.pos)) continue;
      const lemma = (canonical + model.suffixTemplates.at(sid)!.lemmaAdd).toLowerCase();
      if (lemmasSoFar.has(lemma) || (lemmas.get(lemma) ?? 0) - (lemma === leftOutLemma ? 1 : 0) <= 0) continue;
      lemmasSoFar.add(lemma);
      out.push(build(k));
      added++;
    }
  }
  // How each reading stands against the token's other readings: its place by the rough prior, whether
  // its lemma is the most frequent lemma of the text among theirs, and how far below it (log2 bins).
  const lemmaTotals = out.map((c) => {
    const l = c.lemma.toLowerCase();
    return (lemmas.get(l) ?? 0) - (l === leftOutLemma ? 1 : 0);
  });
  const bestLemma = Math.max(0, ...lemmaTotals);
  out.forEach((c, k) => {
    const head = c.pos.replace(/\d+a?$/, '');
    c.features.push(`prank=${Math.min(k, 6)}|${head}`, `lemtop=${bestLemma === 0 ? '-' : lemmaTotals[k] === bestLemma}|${head}`, `lemrel=${bin(bestLemma) - bin(lemmaTotals[k]!)}`);
  });
  return out;
}

/**
 * What a stem's lexicons say: canonical stem; own counts with tag and class, with tag, any; related counts with tag and
 * class, with tag; the cartridge's counts with tag and class, with tag.
 */
type StemFacts = [string, number, number, number, number, number, number, number];

/** Every candidate of a token: its seen readings, or the templates' readings when the form is new. */
export function candidatesOf(model: LearnedModel, token: string, leaveOut?: LeaveOut): Candidate[] {
  return seenCandidates(model, token, leaveOut) ?? patternCandidates(model, token, leaveOut);
}

/** What the ranker knows of a token's neighbourhood (the previous tokens' chosen readings, the next tokens' words). */
export interface TokenContext {
  /** The token itself. */
  token: string;
  /** The token is not in the word-form table (its candidates come from templates): its context features are its own. */
  unseen: boolean;
  /** POS of the previous token's chosen reading ('<s>' at the start) and of the one before it. */
  previousPos: string;
  previousPos2: string;
  previous: string | undefined;
  next: string | undefined;
  /** POS of the next token's likeliest reading before ranking (its most frequent reading, or its best template), '</s>' at the end. */
  nextPos: string;
  /** Noun class of the last noun before the token ('' when none). */
  headClass: string;
  /**
   * Noun class of a noun inside the previous word when that word is no noun itself (`yo-bu-khulu`, a
   * possessive: 14; `e-mi-sebenzi-ini`: 4), '' otherwise (innerClassOf).
   */
  innerClass?: string;
  /**
   * false: a form seen in the training text has no context features that name a word (its own, the
   * previous or the next word, or their letters), only those of POS and agreement; the model's meta.yaml
   * says `seen_context: pos`. Undefined or true: every context feature (models learnt before 2026-11-28).
   */
  seenWords?: boolean;
}

const CONTEXT_KINDS = new Set(['wp', 'wn', 'pp', 'pp2', 'pw', 'ps', 'nw', 'ns', 'np', 'nt', 'ppnt', 'agr', 'tg']);

/** Whether a feature is one of contextKeys()' (`pw=word|POS`, `u.pp=N05|V`). */
export function isContextFeature(feature: string): boolean {
  const start = feature.startsWith('u.') ? 2 : 0;
  const eq = feature.indexOf('=', start);
  return eq > 0 && CONTEXT_KINDS.has(feature.slice(start, eq));
}

/** The context parts of the features linking a candidate's POS to its neighbours: each feature is `part|POS`. */
export function contextKeys(context: TokenContext): string[] {
  if (!context.unseen && context.seenWords === false)
    return [`pp=${context.previousPos}`, `pp2=${context.previousPos2}|${context.previousPos}`, `nt=${context.nextPos}`, `ppnt=${context.previousPos}|${context.nextPos}`, `agr=${context.headClass}`];
  const prev = context.previous === undefined ? '<s>' : context.previous.toLowerCase();
  const nxt = context.next === undefined ? '</s>' : context.next.toLowerCase();
  const word = context.token.toLowerCase();
  const keys = [
    `wp=${word}|${context.previousPos}`,
    `wn=${word}|${context.nextPos}`,
    `pp=${context.previousPos}`,
    `pp2=${context.previousPos2}|${context.previousPos}`,
    `pw=${prev}`,
    `ps=${prev.slice(-2)}`,
    `nw=${nxt}`,
    `ns=${nxt.slice(-2)}`,
    `np=${nxt.slice(0, 2)}`,
    `nt=${context.nextPos}`,
    `ppnt=${context.previousPos}|${context.nextPos}`,
    `agr=${context.headClass}`,
  ];
  return context.unseen ? keys.map((k) => `u.${k}`) : keys;
}

/** The feature of whether a candidate's class agrees with the last noun's. */
export function agreementFeature(pos: string, headClass: string): string {
  const match = CLASS_OF_POS.exec(pos);
  const own = match ? match[2]! : '';
  const head = match ? match[1]! : pos;
  return `agrsame=${own === '' ? '-' : own === headClass}|${head}`;
}

/**
 * The feature of whether a candidate's class agrees with the noun inside the previous word, beside
 * whether it agrees with the last noun's: a qualifier after a possessive or locative may agree with the
 * noun the possessive or locative holds rather than with the head before it (`ngenxa yobukhulu
 * besikhundla`, `besikhundla` of class 14 after `yo-bu-khulu`), and the annotated text says how often.
 */
export function innerAgreementFeature(pos: string, headClass: string, innerClass: string): string {
  const match = CLASS_OF_POS.exec(pos);
  const own = match ? match[2]! : '';
  const head = match ? match[1]! : pos;
  return `agrin=${own === '' ? '-' : innerClass === '' ? 'n' : own === innerClass}|${own === '' ? '-' : own === headClass}|${head}`;
}

/** innerClass of TokenContext after a word read as (`pos`, `morphemes`). */
export function innerClassOf(pos: string, morphemes: readonly Morpheme[], isNoun: (pos: string) => boolean): string {
  return isNoun(pos) ? '' : nounClassOf(morphemes);
}

/** Features linking a candidate's POS to the neighbouring tokens and to the class of the last noun before it (agreement). */
export function contextFeatures(pos: string, context: TokenContext): string[] {
  const out = [...contextKeys(context).map((k) => `${k}|${pos}`), agreementFeature(pos, context.headClass)];
  if (context.innerClass !== undefined) out.push(innerAgreementFeature(pos, context.headClass, context.innerClass));
  return out;
}

/** The POS a token's candidates put first before ranking ('</s>' past the end, '<unk>' without candidates). */
export function priorPos(candidates: ReadonlyArray<Pick<Candidate, 'pos'>> | undefined): string {
  if (candidates === undefined) return '</s>';
  return candidates.length === 0 ? '<unk>' : candidates[0]!.pos;
}

const CLASS_OF_POS = /^(\D+?)0*(\d+a?)$/;

/** The class number a POS tag carries (`POSS08` -> `8`, `N01a` -> `1a`), '' when it carries none. */
export function classOfPos(pos: string): string {
  return CLASS_OF_POS.exec(pos)?.[2] ?? '';
}

/**
 * The class later words agree with after a token read as (`pos`, `morphemes`): a noun's own class;
 * unchanged after a word that itself agrees (its POS carries a class: a possessive, a relative);
 * else the class of a noun inside the word (a locative `e-mi-sebenzi-ini`, `na-` + noun), if any.
 */
export function headClassAfter(pos: string, morphemes: readonly Morpheme[], current: string, isNoun: (pos: string) => boolean): string {
  const match = CLASS_OF_POS.exec(pos);
  if (match) return isNoun(pos) ? match[2]! : current;
  return nounClassOf(morphemes) || current;
}

/** The noun class a POS tag carries when the tag is a noun's (`N09` -> `9`), else null. */
export function nounClassOfPos(pos: string, isNoun: (pos: string) => boolean): string | null {
  const match = CLASS_OF_POS.exec(pos);
  return match && isNoun(pos) ? match[2]! : null;
}
